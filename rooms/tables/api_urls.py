from django.urls import path

from rooms.tables.api import HandHistoryView

urlpatterns = [
    path("tables/history/", HandHistoryView.as_view(), name="tables-history"),
]
