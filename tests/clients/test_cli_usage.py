"""turnbased-cli's answers to a wrong command line, a missing token and a server that is not there."""

from __future__ import annotations

import io
import socket

from turnbased_client import cli


def run(*argv: str, env: dict[str, str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), env=env, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


def test_a_badly_written_bot_or_url_is_a_usage_error_and_sends_nothing(tmp_path):
    env = {"TURNBASED_URL": f"http://127.0.0.1:{closed_port()}", "TURNBASED_TOKEN": "k",
           "TURNBASED_CONFIG": str(tmp_path / "none.json")}
    code, _, err = run("new", "halali", "--bot", "random", env=env)
    assert code == 2 and "--bot SEAT=NAME" in err
    code, _, err = run("--url", "ftp://example.com", "games", env=env)
    assert code == 2 and "Not an http(s) URL" in err


def test_a_server_that_is_not_there_is_said_in_one_line(tmp_path):
    env = {"TURNBASED_URL": f"http://127.0.0.1:{closed_port()}", "TURNBASED_TOKEN": "k",
           "TURNBASED_CONFIG": str(tmp_path / "none.json")}
    code, out, err = run("say", "12", "hello", env=env)
    assert code == 1 and out == "" and err.startswith("error: cannot reach the server") and err.count("\n") == 1


def test_without_a_token_a_command_that_needs_one_says_how_to_log_in(tmp_path):
    code, _, err = run("turns", env={"TURNBASED_CONFIG": str(tmp_path / "none.json")})
    assert code == 2 and "turnbased-cli login" in err and "TURNBASED_TOKEN" in err


def test_the_environment_wins_over_the_config_file_and_the_local_server_is_the_default(tmp_path):
    from turnbased_client import config

    path = tmp_path / "config.json"
    config.save(path, url="https://saved.example", token="saved")
    assert config.load({"TURNBASED_CONFIG": str(path)}) == config.Settings("https://saved.example", "saved", path)
    both = config.load({"TURNBASED_CONFIG": str(path), "TURNBASED_URL": "http://env.example",
                        "TURNBASED_TOKEN": "env"})
    assert (both.url, both.token) == ("http://env.example", "env")
    empty = config.load({"XDG_CONFIG_HOME": str(tmp_path / "nothing")})
    assert (empty.url, empty.token) == (config.DEFAULT_URL, None)
    assert empty.path == tmp_path / "nothing" / "turnbased" / "config.json"
