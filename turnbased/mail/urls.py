from django.urls import path

from turnbased.mail import views

urlpatterns = [
    path("accounts/email/", views.mail_settings, name="mail-settings"),
    path("mail/unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    path("mailbox/", views.mailbox, name="mailbox"),
    path("mailbox/<int:message_id>/", views.mailbox_message, name="mailbox-message"),
]
