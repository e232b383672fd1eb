"""The kernel: what every app of the club needs and no app owns (errors, money, days and slots, the
API's helpers and pagination, the text rules, the islands' tags, the admin kinds). It imports no
app of the project; club/tests/test_app_dependencies.py holds it to that."""
