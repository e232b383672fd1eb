"""Settings for the club site, read from the environment (django-environ).

With LOCAL_MODE on, the defaults are the embedded local stack of `make run`, `make dev` and
`make test`: a throwaway secret, a SQLite file under `var/`, plain HTTP on localhost. Production
leaves LOCAL_MODE off and sets the variables listed in docs/operations.md: every secret must come
from the environment and every secure default holds (`manage.py check --deploy` is clean).
"""

import re
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional, for local overrides; missing is fine

LOCAL_MODE = env.bool("LOCAL_MODE", default=False)
DEBUG = env.bool("DEBUG", default=False)


def local_only(default):
    """A default for local mode only: in production the variable must be set."""
    return default if LOCAL_MODE else environ.Env.NOTSET


SECRET_KEY = env.str("SECRET_KEY", default=local_only("local-mode-only-not-a-secret"))
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if LOCAL_MODE else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

SITE_NAME = env.str("SITE_NAME", default="Sports Club")
# The club's contact details, shown in the footer and on the home page.
CLUB_CONTACT = {
    "address": env.str("CLUB_ADDRESS", default="123 Victory Lane, Green Park, Springfield"),
    "phone": env.str("CLUB_PHONE", default="+1 (555) 010-2030"),
    "email": env.str("CLUB_EMAIL", default="hello@sportsclub.example"),
}
CLUB_CONTACT["phone_uri"] = "tel:" + re.sub(r"[^\d+]", "", CLUB_CONTACT["phone"])
# The site's public address, for the links in e-mails (read away from the site).
SITE_URL: str = env.str(
    "SITE_URL",
    default="http://127.0.0.1:8000" if LOCAL_MODE else f"https://{(ALLOWED_HOSTS or ['localhost'])[0]}",
)

INSTALLED_APPS = [
    "club.apps.ClubAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tasks_db",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_vite",
    "kernel",
    "club",
    "accounts",
    "courts",
    "bookings",
    "memberships",
    "programs",
    "payments",
    "content",
    "notifications",
    "audit",
]

MIDDLEWARE = [
    "kernel.server_timing.ServerTimingMiddleware",  # local mode only: queries and time per response
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages are compressed here (static files come pre-compressed from WhiteNoise above). Django
    # masks CSRF tokens per response and pads gzip output at random, which blunts BREACH.
    "django.middleware.gzip.GZipMiddleware",
    # The session is read only when something asks for it (a page's messages), so the API's reads
    # neither read nor write it, nor vary on Cookie for it.
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "accounts.middleware.FirebaseAuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "club.urls"
WSGI_APPLICATION = "club.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "kernel.context_processors.site",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=local_only(f"sqlite:///{BASE_DIR / 'var' / 'club.sqlite3'}")),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite ignores select_for_update(); taking the write lock at the start of every atomic block
    # serialises them instead, so the row-lock guarantees hold on the embedded database too.
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# The cache holds the rate limits, so it must be shared by every app process: the database by
# default (`manage.py createcachetable`), or Redis with CACHE_URL=redis://127.0.0.1:6379/1.
CACHES = {
    "default": env.cache_url("CACHE_URL", default="dbcache://club_cache"),
    # /healthz's answers from Firebase and Stripe, in each process's own memory: the shared cache is
    # the database by default, and the database may be the very part that is down.
    "healthz": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "healthz"},
}
# How long /healthz reuses the providers' answers; 0 asks them on every hit.
HEALTHZ_CACHE_SECONDS = env.int("HEALTHZ_CACHE_SECONDS", default=5)

# --- Identity: Firebase Authentication -----------------------------------------------------
# Seconds a call to Stripe (or Firebase, at most: IDENTITY_TIMEOUT below) may take; past them, a 503:
# their own defaults (80 and 120 s) would let a provider that hangs hold every app worker.
PROVIDER_TIMEOUT = env.float("PROVIDER_TIMEOUT", default=10)
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "/login"
# The Firebase project, and the web config the login islands need (public values by design).
FIREBASE_PROJECT_ID = env.str("FIREBASE_PROJECT_ID", default=local_only("demo-club"))
FIREBASE_API_KEY = env.str("FIREBASE_API_KEY", default=local_only("local-emulator"))
FIREBASE_AUTH_DOMAIN = env.str("FIREBASE_AUTH_DOMAIN", default=f"{FIREBASE_PROJECT_ID}.firebaseapp.com")
# A service account key file for firebase-admin; without it, Application Default Credentials.
FIREBASE_CREDENTIALS_FILE = env.str("FIREBASE_CREDENTIALS_FILE", default="")
# firebase-admin reads this variable itself and then accepts unsigned tokens from the emulator:
# outside local mode a stray value would let anyone sign in as anyone, so the site refuses to start.
FIREBASE_AUTH_EMULATOR_HOST = env.str("FIREBASE_AUTH_EMULATOR_HOST", default="")
if FIREBASE_AUTH_EMULATOR_HOST and not LOCAL_MODE:
    raise ImproperlyConfigured(
        "FIREBASE_AUTH_EMULATOR_HOST is set while LOCAL_MODE is off. The emulator's tokens are not "
        "signed; unset FIREBASE_AUTH_EMULATOR_HOST in production."
    )
# The session cookie set after a sign-in is verified (Firebase allows up to 14 days).
IDENTITY_COOKIE_NAME = "club_session"
IDENTITY_SESSION_DAYS = env.int("IDENTITY_SESSION_DAYS", default=7)
# Firebase is asked whether a session was revoked (or its account disabled) at most once per person
# in this many seconds; sign-in, payments and admin writes ask every time (accounts/identity.py). A
# revocation in the Firebase console takes effect within this time; our own sign-out and roles at once.
IDENTITY_REVOCATION_CHECK_SECONDS = env.int("IDENTITY_REVOCATION_CHECK_SECONDS", default=300)
# A call to Firebase gives up after IDENTITY_TIMEOUT seconds, without retrying (Google answers in a
# fraction of one); after one that got no answer, the others are refused at once for
# IDENTITY_BREAKER_SECONDS, then one trial call says whether Firebase is back.
IDENTITY_TIMEOUT = env.float("IDENTITY_TIMEOUT", default=min(PROVIDER_TIMEOUT, 1.5))
IDENTITY_BREAKER_SECONDS = env.float("IDENTITY_BREAKER_SECONDS", default=2)
# On only in the tests' own process (conftest.py): a credential may then be a test identity, signed
# with SECRET_KEY, which the provider is never asked about (accounts.identity.IdentityForTests).
ACCEPT_TEST_IDENTITIES = False

# --- Payments: Stripe -------------------------------------------------------------------------
# Local mode talks to localstripe (started by scripts/local_stack.py) with placeholder keys.
STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default=local_only("sk_test_local"))
STRIPE_PUBLISHABLE_KEY = env.str("STRIPE_PUBLISHABLE_KEY", default=local_only("pk_test_local"))
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET", default=local_only("whsec_local_only"))
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="http://127.0.0.1:8420" if LOCAL_MODE else "")
if STRIPE_API_BASE and not LOCAL_MODE:
    raise ImproperlyConfigured(
        "STRIPE_API_BASE is set while LOCAL_MODE is off: production pays through Stripe itself."
    )
CURRENCY = "usd"

# --- Content Security Policy ---------------------------------------------------------------------
# Each page may load only what the site itself serves, plus what sign-in (Firebase) and card
# payments (Stripe) need; no inline script without the page's nonce. Styles may be inline: the
# toasts, dialogs and Stripe's card input set them from JavaScript.
# The Firebase emulator and localstripe, which only local mode may set (see above).
_emulator = f"http://{FIREBASE_AUTH_EMULATOR_HOST}" if FIREBASE_AUTH_EMULATOR_HOST else ""
_local_origins = [origin for origin in (_emulator, STRIPE_API_BASE) if origin]
# `make dev` runs the Vite dev server (HMR) and loads the islands from it; everything else uses the build.
_vite_dev_mode = env.bool("VITE_DEV_MODE", default=False)
_vite_port = env.int("VITE_DEV_SERVER_PORT", default=5173)
_vite_dev = [f"http://127.0.0.1:{_vite_port}", f"ws://127.0.0.1:{_vite_port}"] if _vite_dev_mode else []
_dev_origins = [*_local_origins, *_vite_dev]
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE, "https://js.stripe.com", "https://apis.google.com", *_dev_origins],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE, *_vite_dev],
    "img-src": [CSP.SELF, "data:", "https:"],  # profile photos come from the sign-in provider
    "connect-src": [
        CSP.SELF,
        "https://identitytoolkit.googleapis.com",
        "https://securetoken.googleapis.com",
        "https://api.stripe.com",
        *_dev_origins,
    ],
    "frame-src": [
        "https://js.stripe.com",
        "https://hooks.stripe.com",
        f"https://{FIREBASE_AUTH_DOMAIN}",
        *_local_origins,
    ],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

TIME_ZONE = env.str("TIME_ZONE", default="UTC")

# --- Static files and the Vite build -------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
VITE_OUT_DIR = BASE_DIR / "frontend" / "dist"
STATICFILES_DIRS = [BASE_DIR / "static", ("dist", VITE_OUT_DIR)]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "kernel.staticfiles.StaticFilesStorage"},
}
# Content-hashed files may be cached for ever: all of Vite's build output under dist/assets/, and the
# files Django's manifest storage hashed (a 12-hex-digit hash before the extension).
WHITENOISE_IMMUTABLE_FILE_TEST = rf"^{STATIC_URL}(dist/assets/|.+\.[0-9a-f]{{12}}\.[^./]+$)"
# Source maps are left uncompressed: only a browser's developer tools fetch them, and compressing
# them (14 of the 26 MB of static files, nearly all the API documentation's) took most of
# collectstatic's minute of CPU.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

DJANGO_VITE = {
    "default": {
        "dev_mode": _vite_dev_mode,
        "dev_server_host": "127.0.0.1",
        "dev_server_port": _vite_port,
        "static_url_prefix": "dist",
        "manifest_path": VITE_OUT_DIR / "manifest.json",
    }
}

# --- Security ------------------------------------------------------------------------------
# Outside local mode the site is HTTPS only; behind a TLS-terminating proxy, set TRUST_X_FORWARDED_PROTO.
SECURE_DEFAULT = not LOCAL_MODE
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=SECURE_DEFAULT)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=SECURE_DEFAULT)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=SECURE_DEFAULT)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if SECURE_DEFAULT else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=SECURE_DEFAULT)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=SECURE_DEFAULT)
# Google sign-in's popup, on another origin, must answer this window: Django's "same-origin" would cut it off.
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin-allow-popups"
if env.bool("TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The health check answers plain HTTP so a load balancer can probe it behind the TLS proxy.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- E-mail --------------------------------------------------------------------------------
# EMAIL_URL, e.g. smtp+tls://user:password@smtp.example.com:587. In local mode the mail goes to the
# local mailbox (aiosmtpd's, started by scripts/local_stack.py), through the same SMTP.
_mail = env.email_url("EMAIL_URL", default="smtp://127.0.0.1:1025" if LOCAL_MODE else "smtp://localhost:25")
MAILERS = {
    "default": {
        "BACKEND": _mail["EMAIL_BACKEND"],
        "OPTIONS": {
            "host": _mail["EMAIL_HOST"],
            "port": _mail["EMAIL_PORT"],
            "username": _mail["EMAIL_HOST_USER"],
            "password": _mail["EMAIL_HOST_PASSWORD"],
            "use_tls": _mail.get("EMAIL_USE_TLS", False),
            "use_ssl": _mail.get("EMAIL_USE_SSL", False),
        }
        if _mail["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
        else {},
    }
}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default=f"{SITE_NAME} <club@localhost>")
# The domain of the Message-ID of the club's messages.
MAIL_DOMAIN = env.str("MAIL_DOMAIN", default=urlsplit(SITE_URL).hostname)
# Where the local mailbox keeps what it receives, for the local mail page.
MAIL_DIR = Path(env.str("MAIL_DIR", default=str(BASE_DIR / "var" / "mail")))
SERVER_EMAIL = DEFAULT_FROM_EMAIL
ADMINS = env.list("ADMIN_EMAILS", default=[])

# --- REST framework ------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Bearer first: its header makes DRF answer 401 (not 403) to a caller who is not signed in.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.FirebaseBearerAuthentication",
        "accounts.authentication.FirebaseSessionAuthentication",
    ],
    # Deny by default: every API view states a looser permission where it is public.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["kernel.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "kernel.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # How many reverse proxies stand before the app. With 0, X-Forwarded-For is ignored: anyone can
    # write it, and trusting it would let a caller escape every limit with a fresh address each time.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    # Per caller (user, else address), counted in the shared cache; pages use them too
    # (kernel/ratelimit.py). Over the limit: 429 with Retry-After.
    "DEFAULT_THROTTLE_RATES": {
        # Sign-ins per address, and per account: one address (a club's Wi-Fi) has many people.
        "session": env.str("RATE_SESSION", default="60/min"),
        "session_account": env.str("RATE_SESSION_ACCOUNT", default="10/min"),
        "booking": env.str("RATE_BOOKING", default="20/min"),
        "payment": env.str("RATE_PAYMENT", default="20/min"),
        "support": env.str("RATE_SUPPORT", default="5/min"),
        "newsletter": env.str("RATE_NEWSLETTER", default="5/min"),
        "waitlist": env.str("RATE_WAITLIST", default="20/min"),
        "calendar": env.str("RATE_CALENDAR", default="5/min"),
        "quote": env.str("RATE_QUOTE", default="20/min"),
        "unsubscribe": env.str("RATE_UNSUBSCRIBE", default="10/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": f"{SITE_NAME} API",
    "DESCRIPTION": "The JSON calls of the club site. Sign in with the session cookie "
    "(from POST /api/session) or `Authorization: Bearer <Firebase ID token>`.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name per set of statuses, whichever serializers show it.
    "ENUM_NAME_OVERRIDES": {
        "BookingStatusEnum": "bookings.models.Booking.Status",
        "PaymentStatusEnum": "payments.models.Payment.Status",
        "RefundStatusEnum": "payments.models.Refund.Status",
        "WaitlistStatusEnum": "bookings.models.WaitlistEntry.Status",
        "MembershipStatusEnum": "memberships.models.Membership.Status",
        "PriceSharingEnum": "bookings.models.Policy.PriceSharing",
        "SeriesPaymentEnum": "bookings.models.Policy.SeriesPayment",
        "ProgramKindEnum": "programs.models.Program.Kind",
        "ProgramStatusEnum": "programs.models.Program.Status",
        "RegistrationStatusEnum": "programs.models.Registration.Status",
    },
}

COURTS_PER_PAGE = 6
# The day sheet's rows a page (/schedule): a club's every court, unless it has very many.
SCHEDULE_COURTS_PER_PAGE = 50
DASHBOARD_PAGE_SIZE = 25

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"secrets": {"()": "kernel.logs.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["secrets"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # The stripe library logs every request at INFO.
    "loggers": {"stripe": {"level": "WARNING"}},
}

# --- Background work and notifications ------------------------------------------------------
# Django's tasks framework on the database (django-tasks-db): a task is a row, written in the
# transaction that queues it; `manage.py run_worker` runs them (several workers take rows with
# SKIP LOCKED, SQLite's write lock on the embedded default) and starts PERIODIC_TASKS on time.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# While the database is away a worker waits this long before trying again, then twice as long each
# time, at most a minute (club/management/commands/run_worker.py); it never exits for it.
WORKER_DATABASE_RETRY_SECONDS = env.float("WORKER_DATABASE_RETRY_SECONDS", default=1)
# Each periodic task and how often it runs (seconds); one worker starts each run, however many run.
PERIODIC_TASKS = {
    "bookings.services.expire_overdue": env.int("EXPIRE_EVERY_SECONDS", default=60),
    "bookings.notices.send_reminders": 300,
    "bookings.waitlist.pass_on_waitlist_offers": 60,
    "bookings.matches.call_off_unfilled_matches": 60,
    "programs.services.lapse_registrations": 60,
    "notifications.services.requeue_stalled": 300,
    "payments.services.send_stalled_refunds": 300,
    "payments.services.reconcile_payments": 60,
    "payments.services.ask_for_the_rest": 60,
    "memberships.services.end_lapsed_memberships": 300,
    "payments.membership_payments.end_overdue_memberships": 300,
    "payments.membership_payments.reconcile_memberships": 300,
    "memberships.notices.send_renewal_reminders": 3600,
    "club.tasks.requeue_abandoned": 60,
}
# The first retry of a message the mail server did not take; each next one waits twice as long.
NOTIFY_RETRY_SECONDS = env.int("NOTIFY_RETRY_SECONDS", default=30)
# A task claimed by a worker that has not finished it after this long is queued again: its worker
# was killed, or lost the database mid-task (club.tasks.requeue_abandoned). Every task is
# safe to run twice; one that runs longer than this may run twice at once.
TASK_CLAIM_TIMEOUT_SECONDS = env.int("TASK_CLAIM_TIMEOUT_SECONDS", default=600)
# A message claimed by a worker that has not finished it after this long is queued again.
NOTIFY_CLAIM_TIMEOUT_SECONDS = env.int("NOTIFY_CLAIM_TIMEOUT_SECONDS", default=600)
# A refund still pending this long after its try was due is queued again (its task was lost).
REFUND_STALL_SECONDS = env.int("REFUND_STALL_SECONDS", default=600)
# The first retry of a refund Stripe did not answer; each next one waits twice as long (an hour at most).
REFUND_RETRY_SECONDS = env.int("REFUND_RETRY_SECONDS", default=30)
# /healthz and the dashboard call a refund late when it is still pending this long after it was recorded.
REFUND_LATE_SECONDS = env.int("REFUND_LATE_SECONDS", default=3600)
# A payment still pending this long after it was started is compared with Stripe, and again each time
# as long after that (payments.services.payments_reconcile): a card charged while our side was down.
PAYMENT_RECONCILE_SECONDS = env.int("PAYMENT_RECONCILE_SECONDS", default=300)
# /healthz calls the queue late ("ok": false) when its oldest due task has waited longer than this.
HEALTHZ_QUEUE_MAX_WAIT_SECONDS = env.int("HEALTHZ_QUEUE_MAX_WAIT_SECONDS", default=300)
# The reminders: this many hours before an approved booking's payment is due, and before a booking.
NOTIFY_PAYMENT_REMINDER_HOURS = env.int("NOTIFY_PAYMENT_REMINDER_HOURS", default=6)
NOTIFY_BOOKING_REMINDER_HOURS = env.int("NOTIFY_BOOKING_REMINDER_HOURS", default=24)
# An e-mail's unsubscribe link works for this many days (the preferences page, signed in, always does).
NOTIFY_UNSUBSCRIBE_DAYS = env.int("NOTIFY_UNSUBSCRIBE_DAYS", default=365)
# At most one "requests waiting" e-mail per admin in this many minutes.
NOTIFY_ADMIN_MINUTES = env.int("NOTIFY_ADMIN_MINUTES", default=15)
