# gunicorn reads this file from the directory it starts in (the repository's root).
# The access log without the secrets that stand in addresses (kernel/logs.py).
logger_class = "kernel.logs.AccessLogger"
