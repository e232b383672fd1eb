"""A person in the admins' tables: the name, and under it the address, which breaks only after its
"@" and before its dots when the column is narrow."""

from kernel.people import email_html, person


def test_an_address_may_break_only_after_its_at_sign_and_before_its_dots():
    assert email_html("dana.novak@players.example") == (
        '<span class="wrap-break-word">dana<wbr>.novak@<wbr>players<wbr>.example</span>'
    )


def test_the_name_comes_first_and_the_address_under_it():
    assert person("Dana Novak", "dana@club.example") == (
        '<span class="font-medium">Dana Novak</span><span class="block text-xs text-base-content/70">'
        '<span class="wrap-break-word">dana@<wbr>club<wbr>.example</span></span>'
    )


def test_without_a_name_the_address_stands_alone():
    assert person("", "dana@club.example") == email_html("dana@club.example")


def test_what_people_typed_is_escaped():
    assert email_html('"<b>"@x.example') == (
        '<span class="wrap-break-word">&quot;&lt;b&gt;&quot;@<wbr>x<wbr>.example</span>'
    )
