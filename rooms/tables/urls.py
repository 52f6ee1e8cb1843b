from django.urls import path

from rooms.tables import history, pages, verify, views

app_name = "tables"
urlpatterns = [
    path("quick-start/<int:tier_id>/", views.quick_start, name="quick_start"),
    path("history/", history.history_page, name="history"),
    path("<int:table_id>/", pages.table_page, name="table"),
    path("hands/<int:hand_id>/verify/", verify.hand_verify_page, name="verify"),
]
