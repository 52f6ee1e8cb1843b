"""The chip-dumping report under /finance/ and /api/finance/, included once from the root URLconf."""

from django.urls import path

from rooms.tables import finance

app_name = "tables_finance"
urlpatterns = [
    path("finance/chip-dumping/", finance.chip_dumping_page, name="chip_dumping"),
    path("finance/chip-dumping.csv", finance.chip_dumping_page, {"as_csv": True}, name="chip_dumping_csv"),
    path("api/finance/chip-dumping/", finance.ChipDumpingApi.as_view(), name="chip_dumping_api"),
]
