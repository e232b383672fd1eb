# gunicorn reads this file from the directory it starts in (the repository's root).
# The access log without the secrets that stand in addresses (club/logs.py).
logger_class = "club.logs.AccessLogger"
