"""What is text and what only looks like it (issue 42): each kind of input, valid and not, in each encoding."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from turnbased.kit.texts import text_input
from turnbased.kit.texts.text_input import InvalidText

# Strings that JSON can write and no UTF-8 text can hold, each with the surrogate named in the refusal.
NOT_TEXT = {
    "\ud800": "U+D800",  # a lone high surrogate
    "\udc00": "U+DC00",  # a low one with no high one before it
    "x\udbffy": "U+DBFF",  # a high one followed by a character that is no low one
    "\udc00\ud800": "U+DC00",  # a pair in the wrong order
    "\U0001f600 and \udfff": "U+DFFF",  # after a real character beyond U+FFFF
}
# Percent-encoded bytes that are not UTF-8: a surrogate's own bytes, a byte UTF-8 never uses, a sequence cut
# short, an overlong "/", a continuation byte with nothing before it, and a byte sent unescaped.
NOT_UTF8 = [b"%ED%A0%80", b"%FF", b"%C3", b"%C0%AF", b"%80", b"caf\xe9"]
UTF8 = [b"", b"plain", b"a+b", b"caf%C3%A9", b"%F0%9F%98%80", b"%E2%82%AC", "café".encode(), b"%25FF", b"x%zz"]


@pytest.mark.parametrize("value", list(NOT_TEXT))
def test_a_string_with_a_lone_surrogate_is_not_text_wherever_it_sits(value):
    for body, place in [(value, ""), ({"game": value}, "game: "), ({"time_control": {"kind": value}},
                        "time_control.kind: "), ({"kinds": ["your_turn", value]}, "kinds.1: "),
                        ([{"a": 1}, {"b": [value]}], "1.b.0: ")]:
        with pytest.raises(InvalidText) as refused:
            text_input.check_json(body)
        assert str(refused.value).startswith(place) and NOT_TEXT[value] in str(refused.value), body
    with pytest.raises(InvalidText, match="bots: a member's name"):
        text_input.check_json({"bots": {value: "basic"}})
    assert not text_input.is_text(value)
    assert text_input.is_text(text_input.readable(value)) and "\ufffd" in text_input.readable(value)


def test_text_beyond_the_basic_plane_and_every_other_json_value_is_text():
    text_input.check_json(json.loads('{"a": "\\ud83d\\ude00", "\\ud83d\\ude00": ["\\u00e9", 1, 2.5, true, null, {}]}'))
    text_input.check_json({"ключ": "中文 Ünnep \x00 \ufffd \U0010ffff"})  # NUL is text: each field refuses it itself
    assert text_input.readable({"a": ["ok", "\U0001f600"], "b": 3}) == {"a": ["ok", "\U0001f600"], "b": 3}


def test_readable_keeps_the_structure_and_replaces_only_what_is_not_text():
    assert text_input.readable({"k\ud800": ["x\udc00y", 2, None]}) == {"k\ufffd": ["x\ufffdy", 2, None]}


@pytest.mark.parametrize("encoded", NOT_UTF8)
def test_a_query_string_or_form_that_is_not_utf8_once_decoded_is_refused_naming_its_field(encoded):
    query = b"page_size=10&status=" + encoded + b"&x=1"
    for problem in (text_input.query_problem(query), text_input.form_problem(query)):
        assert problem is not None and "status=" in problem and "UTF-8" in problem
    assert text_input.query_problem(encoded + b"=value") is not None  # in a name too


@pytest.mark.parametrize("encoded", UTF8)
def test_a_query_string_or_form_of_utf8_passes(encoded):
    assert text_input.query_problem(b"a=" + encoded + b"&" + encoded + b"=b") is None
    assert text_input.form_problem(b"a=" + encoded) is None


def test_a_query_is_read_in_the_charset_the_request_declares_and_a_surrogate_it_decodes_to_is_not_text():
    assert text_input.query_problem(b"title=caf%E9", "iso-8859-1") is None
    assert text_input.query_problem(b"title=caf%E9", "utf-8") is not None
    assert "UTF-7" in text_input.query_problem(b"title=%2B2AA-", "utf-7")  # UTF-7 for "\ud800"
    assert text_input.query_problem(b"title=%2BAOk-", "utf-7") is None  # UTF-7 for "é"
    body, content_type = multipart(b'Content-Disposition: form-data; name="t"\r\n\r\ncaf\xe9')
    assert text_input.multipart_problem(body, content_type, "iso-8859-1") is None


def test_an_urlencoded_form_is_utf8_whatever_it_declares():
    assert text_input.form_problem(b"title=caf%C3%A9", "utf-8") is None
    assert text_input.form_problem(b"title=caf%C3%A9", "UTF-8") is None
    for charset in ("iso-8859-1", "utf-7", "utf8"):  # Django refuses all three when it reads the form
        assert f"charset {charset}" in text_input.form_problem(b"title=x", charset)


def multipart(*parts: bytes) -> tuple[bytes, bytes]:
    body = b"".join(b"--XyZ\r\n" + part + b"\r\n" for part in parts) + b"--XyZ--\r\n"
    return body, b"multipart/form-data; boundary=XyZ"


def test_a_multipart_form_with_a_field_a_name_or_a_file_name_that_is_not_utf8_is_refused():
    good = b'Content-Disposition: form-data; name="title"\r\n\r\ncaf\xc3\xa9'
    a_file = b'Content-Disposition: form-data; name="f"; filename="board.png"\r\n\r\n\x89PNG\xff\x00'
    assert text_input.multipart_problem(*multipart(good, a_file)) is None  # a file's content is not text
    refused = {
        "field": b'Content-Disposition: form-data; name="title"\r\n\r\ncaf\xe9',
        "name": b'Content-Disposition: form-data; name="tit\xffle"\r\n\r\nx',
        "file name": b'Content-Disposition: form-data; name="f"; filename="\xc3.png"\r\n\r\nx',
        "RFC 2231 name": b"Content-Disposition: form-data; name=\"f\"; filename*=UTF-8''%ED%A0%80\r\n\r\nx",
        "base64 field": b'Content-Disposition: form-data; name="t"\r\nContent-Transfer-Encoding: base64\r\n\r\n/w==',
    }
    for kind, part in refused.items():
        assert text_input.multipart_problem(*multipart(good, part)) is not None, kind
    assert "title" in text_input.multipart_problem(*multipart(refused["field"]))
    assert text_input.multipart_problem(b"not multipart at all", b"multipart/form-data") is None


@pytest.mark.parametrize(("value", "text"), [(b"\xff", False), (b"caf\xe9", False), (b"\xed\xa0\x80", False),
                                             (b"caf\xc3\xa9", True), (b"en-GB,hu;q=0.8", True), (b"", True)])
def test_a_header_is_text_when_its_bytes_are_utf8(value, text):
    problem = text_input.header_problem("Accept-Language", value)
    assert (problem is None) is text and (text or "Accept-Language" in problem)


def test_a_json_body_another_parser_reads_is_searched_for_lone_surrogates_only_where_it_has_escapes():
    assert text_input.surrogate_escapes_problem(b'{"To": "\\ud800@example.com"}') is not None
    assert text_input.surrogate_escapes_problem(b'{"To": "\\\\ud800"}') is None  # an escaped backslash, then "ud800"
    assert text_input.surrogate_escapes_problem(b'{"Subject": "\\ud83d\\ude00"}') is None
    assert text_input.surrogate_escapes_problem(b"RawEmail=\\ud800") is None  # not JSON: its own reader refuses it


@pytest.mark.parametrize("language", ["hu", "de"])
def test_every_refusal_is_worded_in_the_readers_language(language):
    refusals = [
        lambda: text_input.query_problem(b"a=%FF"), lambda: text_input.form_problem(b"a=%FF"),
        lambda: text_input.form_problem(b"a=b", "iso-8859-1"),
        lambda: text_input.header_problem("Prefer", b"\xff"),
        lambda: text_input.multipart_problem(*multipart(b'Content-Disposition: form-data; name="t"\r\n\r\n\xff')),
        lambda: text_input.multipart_problem(*multipart(b'Content-Disposition: form-data; name="\xff"\r\n\r\nx')),
    ]

    def refused(check) -> str:
        with pytest.raises(InvalidText) as error:
            check()
        return str(error.value)

    json_refusals = [lambda: text_input.check_json({"a": "\ud800"}), lambda: text_input.check_json({"\ud800": 1})]
    english = [check() for check in refusals] + [refused(check) for check in json_refusals]
    with translation.override(language):
        worded = [check() for check in refusals] + [refused(check) for check in json_refusals]
    assert all(theirs != ours for theirs, ours in zip(worded, english)), worded
