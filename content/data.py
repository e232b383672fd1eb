"""The club's editorial content that changes with a release, not from day to day, reviewed like code;
what staff change often (coupons, announcements) is in the database."""

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Testimonial:
    name: str
    role: str  # "Member" or "Coach"
    photo: str  # under static/
    feedback: str


@dataclass(frozen=True)
class BlogPost:
    id: int
    title: str
    excerpt: str
    image: str  # under static/
    date: date
    body: tuple[str, ...]  # paragraphs


@dataclass(frozen=True)
class Partner:
    name: str
    logo: str  # under static/


HERO_IMAGES = [
    ("img/hero/badminton-1.svg", "A badminton rally over the net"),
    ("img/hero/badminton-2.svg", "Two badminton rackets and a shuttlecock"),
    ("img/hero/basketball.svg", "A basketball dropping towards the hoop"),
    ("img/hero/tennis-1.svg", "A tennis racket and ball above a hard court"),
    ("img/hero/tennis-2.svg", "Tennis balls on a clay court"),
]

TESTIMONIALS = [
    Testimonial(
        "Amina Khan",
        "Member",
        "img/people/amina.svg",
        "Booking a court takes a minute, and the courts are always ready when I arrive.",
    ),
    Testimonial(
        "David Mensah",
        "Member",
        "img/people/david.svg",
        "I joined for the basketball and stayed for the people. "
        "The evening games are the highlight of my week.",
    ),
    Testimonial(
        "Sofia Rossi",
        "Member",
        "img/people/sofia.svg",
        "The announcements keep me up to date, and paying online means no more queues at the desk.",
    ),
    Testimonial(
        "Liam Brooks",
        "Coach",
        "img/people/coach-liam.svg",
        "Seeing who booked which court makes planning my junior sessions simple.",
    ),
]

BLOG_POSTS = [
    BlogPost(
        1,
        "Junior Tennis League Starts in Spring",
        "Ten weeks of friendly matches for players aged 8 to 16, with coaching every Saturday.",
        "img/blog/junior-league.svg",
        date(2026, 10, 28),
        (
            "Our junior league returns this spring: ten weeks of friendly matches for players aged "
            "8 to 16, grouped by level so that every match is a good one.",
            "Every Saturday morning our coaches run a training session before the matches. "
            "Parents are welcome to watch from the terrace.",
            "Sign-ups open at the front desk and by e-mail. Places are limited to 32 players.",
        ),
    ),
    BlogPost(
        2,
        "New Floodlights on the Outdoor Courts",
        "Play until 10 pm all year round: the outdoor courts now have low-glare LED floodlights.",
        "img/blog/floodlights.svg",
        date(2026, 10, 12),
        (
            "The outdoor tennis and basketball courts now have new LED floodlights, so evening "
            "slots run until 10 pm all year round.",
            "The lights are low-glare and use less than half the energy of the old ones. "
            "Our neighbours asked us to keep the light off their gardens, and the new fittings do.",
        ),
    ),
    BlogPost(
        3,
        "Five Tips to Improve Your Badminton Footwork",
        "Our coaches share the drills that make the biggest difference to club players.",
        "img/blog/badminton-tips.svg",
        date(2026, 9, 30),
        (
            "Good footwork wins more rallies than a hard smash. "
            "Our coaches picked five drills that help club players most.",
            "Start every rally from a ready position, move with small steps, return to the centre after each "
            "shot, lunge with the racket foot, and practise shadow footwork for ten minutes before you play.",
        ),
    ),
]

PARTNERS = [
    Partner(name, f"img/partners/{name.lower().replace(' ', '-')}.svg")
    for name in [
        "Apex Sports",
        "BlueLine",
        "Courtside",
        "DeltaFit",
        "EverGrip",
        "FlexPro",
        "GoalPost",
        "HyperServe",
        "IronNet",
        "JumpStart",
        "KineticWear",
        "LoopBall",
        "MatchPoint",
    ]
]
