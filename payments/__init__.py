"""Card payments through Stripe and the membership they grant (built by the payments issue)."""
