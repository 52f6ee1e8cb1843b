from django.urls import path

from rooms import views

app_name = "rooms"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("games/<slug:slug>/", views.game_detail, name="game"),
]
