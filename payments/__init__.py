"""Card payments through Stripe, the coupons that discount them, and the membership they grant."""
