from django.urls import path

from .apis import AnnouncementDetailApi, AnnouncementListApi, CouponDetailApi, CouponListApi

urlpatterns = [
    path("coupons", CouponListApi.as_view(), name="api-coupons"),
    path("coupons/<int:coupon_id>", CouponDetailApi.as_view(), name="api-coupon"),
    path("announcements", AnnouncementListApi.as_view(), name="api-announcements"),
    path("announcements/<int:announcement_id>", AnnouncementDetailApi.as_view(), name="api-announcement"),
]
