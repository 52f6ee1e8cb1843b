from django.urls import path

from rooms.solo import views

app_name = "solo"
urlpatterns = [
    path("<int:tier_id>/", views.solo_page, name="play"),
    path("records/", views.records, name="records"),
    path("plays/<int:play_id>/verify/", views.verify, name="verify"),
    path("api/state/", views.state, name="state"),
    path("api/spin/", views.spin, name="spin"),
    path("api/gamble/", views.gamble, name="gamble"),
    path("api/collect/", views.collect, name="collect"),
    path("api/rotate/", views.rotate, name="rotate"),
]
