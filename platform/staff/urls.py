from platform.staff import views

from django.urls import path

app_name = "staff"

urlpatterns = [
    path("verify/", views.otp_verify, name="otp_verify"),
]
