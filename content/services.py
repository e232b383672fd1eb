from .models import ContactMessage


def contact_message_create(*, name: str, email: str, message: str) -> ContactMessage:
    return ContactMessage.objects.create(name=name, email=email, message=message)
