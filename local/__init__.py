"""What local mode adds beside its stand-ins (scripts/local_stack.py starts them): pages to read the
mail the local mailbox kept and the links the Firebase Auth Emulator keeps instead of sending mail,
and the card payment that localstripe's fake Stripe.js cannot make. The project routes it only in
local mode (`include("local.urls")`, by name); no package of the site imports it."""
