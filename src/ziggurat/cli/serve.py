"""`ziggurat serve`: a board in the browser (see `ziggurat.serve`), on this machine only."""

from __future__ import annotations

import click

from ..errors import GameError
from .options import set_option

HOST = "127.0.0.1"  # never another machine's: the app has no accounts and runs any shipped game


@click.command()
@click.argument("ruleset", metavar="[RULESET]", required=False)
@set_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to serve on (0: any free one).")
def serve(ruleset, options, port):
    """Play, replay and watch games in the browser at http://127.0.0.1:PORT/.

    RULESET (a shipped name or a path) and its --set options are what the page offers first; any
    shipped ruleset can be chosen there. Stop the server with Ctrl-C.
    """
    if options and ruleset is None:
        raise click.UsageError("--set needs a RULESET to set options of")
    try:
        import uvicorn  # noqa: F401 (the extra is there before the server starts; run() uses it)

        from ..serve import create_app
    except ImportError as e:
        raise GameError(f"ziggurat serve needs the 'serve' extra ({e.name} is missing): "
                        f"pip install 'ziggurat[serve]'") from None
    app = create_app(ruleset, options)  # a bad ruleset or option is named before the server starts
    sock = _listen(port)
    click.echo(f"serving on http://{HOST}:{sock.getsockname()[1]}/ (Ctrl-C stops)")
    try:
        run(app, sock)
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        click.echo("stopped (Ctrl-C)")
        raise SystemExit(130) from None


def run(app, sock) -> None:
    """Serve `app` on `sock` until Ctrl-C (or SIGTERM), which stops it at once: the requests
    waiting for an agent's move are answered, and the agents' searches (daemon threads) end
    with the process."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            app.state.stop_thinking()
            super().handle_exit(sig, frame)

    # timeout_graceful_shutdown: a request still running a second after Ctrl-C is cancelled.
    Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)).run(sockets=[sock])


def _listen(port: int):
    """A socket bound to 127.0.0.1:port; GameError when the port cannot be had."""
    import socket

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as e:
        sock.close()
        raise GameError(f"cannot serve on port {port}: {e.strerror or e} "
                        f"(choose another with --port N, or --port 0 for any free one)") from None
    sock.listen()  # the address printed answers at once (connections wait until the app runs)
    sock.set_inheritable(True)
    return sock
