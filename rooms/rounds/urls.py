from django.urls import path

from rooms.rounds import history, pages, views

app_name = "rounds"
urlpatterns = [
    path("enter/<int:tier_id>/", views.enter, name="enter"),
    path("history/", history.round_history_page, name="history"),
    path("<int:table_id>/", pages.round_page, name="table"),
    path("<int:table_id>/shoes/<int:number>/verify/", pages.shoe_verify_page, name="verify_shoe"),
]
