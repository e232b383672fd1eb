"""Django's session and message middleware, gone around by the JSON API's reads.

A GET, HEAD or OPTIONS under /api/ neither reads nor writes Django's session (a signed-in caller is
known by the Firebase session cookie, accounts.middleware) nor adds or shows a message (the pages
show them; only the API's writes, such as the greeting of POST /api/session, add one), so these two
layers would only cost every read its time. Everything else keeps them, and every API request still
passes through the security headers, CSRF, the identity middleware and the rate limits.
"""

from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware

API_PREFIX = "/api/"
READS = frozenset({"GET", "HEAD", "OPTIONS"})


def is_api_read(request) -> bool:
    return request.method in READS and request.path_info.startswith(API_PREFIX)


class SessionMiddleware(DjangoSessionMiddleware):
    def __call__(self, request):
        if is_api_read(request):
            return self.get_response(request)
        return super().__call__(request)


class MessageMiddleware(DjangoMessageMiddleware):
    def __call__(self, request):
        if is_api_read(request):
            return self.get_response(request)
        return super().__call__(request)
