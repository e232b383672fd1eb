"""Card payments through Stripe and the membership they grant."""
