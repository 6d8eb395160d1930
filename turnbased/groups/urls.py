from django.urls import path

from turnbased.groups import views

urlpatterns = [
    path("groups/", views.directory, name="groups-directory"),
    path("groups/new/", views.group_new, name="groups-new"),
    path("groups/<int:group_id>/", views.group_detail, name="groups-detail"),
    path("groups/<int:group_id>/members/", views.group_members, name="groups-members"),
    path("groups/<int:group_id>/tables/", views.group_tables, name="groups-tables"),
    path("groups/<int:group_id>/settings/", views.group_settings, name="groups-settings"),
    path("groups/<int:group_id>/join/", views.join, name="groups-join"),
    path("groups/<int:group_id>/request/withdraw/", views.request_withdraw, name="groups-request-withdraw"),
    path("groups/<int:group_id>/requests/answer/", views.request_answer, name="groups-request-answer"),
    path("groups/<int:group_id>/invite/", views.invite, name="groups-invite"),
    path("groups/<int:group_id>/invitations/withdraw/", views.invitation_withdraw,
         name="groups-invitation-withdraw"),
    path("groups/<int:group_id>/invitation/answer/", views.invitation_answer, name="groups-invitation-answer"),
    path("groups/<int:group_id>/members/role/", views.role, name="groups-role"),
    path("groups/<int:group_id>/members/<str:username>/remove/", views.member_remove, name="groups-member-remove"),
    path("groups/<int:group_id>/leave/", views.leave, name="groups-leave"),
    path("groups/<int:group_id>/hand-over/", views.hand_over, name="groups-hand-over"),
    path("groups/<int:group_id>/delete/", views.delete, name="groups-delete"),
]
