from django.urls import path

from turnbased.groups.api import views

urlpatterns = [
    path("groups/", views.GroupListApi.as_view(), name="api-groups"),
    path("groups/<int:group_id>/", views.GroupApi.as_view(), name="api-group"),
    path("groups/<int:group_id>/members/", views.MembersApi.as_view(), name="api-group-members"),
    path("groups/<int:group_id>/members/<str:username>/", views.MemberApi.as_view(), name="api-group-member"),
    path("groups/<int:group_id>/owner/", views.OwnerApi.as_view(), name="api-group-owner"),
    path("groups/<int:group_id>/invitations/", views.InvitationsApi.as_view(), name="api-group-invitations"),
    path("groups/<int:group_id>/invitations/<str:username>/", views.InvitationApi.as_view(),
         name="api-group-invitation"),
    path("groups/<int:group_id>/requests/", views.RequestsApi.as_view(), name="api-group-requests"),
    path("groups/<int:group_id>/requests/<str:username>/", views.RequestApi.as_view(), name="api-group-request"),
    path("groups/<int:group_id>/tables/", views.GroupTablesApi.as_view(), name="api-group-tables"),
    path("me/groups/", views.MyGroupsApi.as_view(), name="api-my-groups"),
    path("me/group-invitations/", views.MyInvitationsApi.as_view(), name="api-my-group-invitations"),
    path("me/group-invitations/<int:group_id>/", views.MyInvitationApi.as_view(), name="api-my-group-invitation"),
]
