"""How uvicorn serves the app: HTTPS through uvicorn's own TLS
(``ssl_certfile``/``ssl_keyfile``), the access log, and which proxies'
X-Forwarded-For/-Proto headers are believed (uvicorn's ``proxy_headers`` and
``forwarded_allow_ips``). Everything that can be wrong is checked before the
service starts, as a SeekplanError naming the setting."""

from __future__ import annotations

import gc
import ssl
import sys
from typing import TYPE_CHECKING, Any

from seekplan.errors import SeekplanError
from seekplan.serve.access_log import AccessLog, access_logger
from seekplan.serve.config import StageConfig

if TYPE_CHECKING:
    import uvicorn

#: How often (seconds) a thread holding the interpreter lock hands it over
#: while another waits (Python's default: 0.005). A release answered while
#: a 100,000-file stage is decoded and queued gives the lock back at every
#: database call and waits up to this long to get it again: the slowest of
#: the releases during that stage took 115-133 ms at 0.001 against 152-163 ms
#: at 0.005, the stage's rate unchanged (39,500-41,200 files/s against
#: 38,400-44,100; three runs each of `python benchmarks/bench_serve.py --files
#: 100000 --api-only`, 2026-11-27).
SWITCH_INTERVAL_S = 0.001


def settle_interpreter() -> None:
    """Sets the switch interval, and moves every object made so far (the
    catalog, the app, the imported modules) out of the garbage collector's
    sight: a full collection walked them all while holding the interpreter
    lock, 55-77 ms at a time during a 100,000-file stage, and a release
    waited for it (``gc.freeze``; what the process makes later is still
    collected)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    gc.collect()
    gc.freeze()


class _Encrypted(Exception):
    """The key asked for a password: the service starts unattended."""


def _no_password() -> str:
    raise _Encrypted


def check_tls(cert: str, key: str) -> None:
    """``cert`` and ``key`` load as one pair, as uvicorn will load them; an
    unreadable file, a key that is not the certificate's or an encrypted key
    is an error naming both."""
    where = f"tls_cert {cert} and tls_key {key}"
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key, _no_password)
    except _Encrypted:
        raise SeekplanError(
            f"{where}: the key is encrypted; give an unencrypted key readable only by the "
            "service's user (it starts unattended)"
        ) from None
    except ssl.SSLError as e:
        raise SeekplanError(
            f"{where}: not a PEM certificate and its key ({e.reason or e})"
        ) from None
    except OSError as e:
        raise SeekplanError(f"{where}: cannot read ({e.strerror or e})") from None


def scheme(cfg: StageConfig) -> str:
    """``https`` when the service serves TLS itself, else ``http``."""
    return "https" if cfg.tls_cert is not None else "http"


def uvicorn_config(app: Any, cfg: StageConfig) -> uvicorn.Config:
    """uvicorn's settings for ``app`` under ``cfg``, checked (TLS pair,
    access-log file); the app wrapped in the access log when it is on."""
    import uvicorn

    if cfg.tls_cert is not None and cfg.tls_key is not None:
        check_tls(cfg.tls_cert, cfg.tls_key)
    logger = access_logger(cfg.access_log)
    return uvicorn.Config(
        AccessLog(app, logger) if logger is not None else app,
        log_level="warning",
        # Ours instead: it has the duration (seekplan.serve.access_log).
        access_log=False,
        ssl_certfile=cfg.tls_cert,
        ssl_keyfile=cfg.tls_key,
        proxy_headers=True,
        # Given always: uvicorn's own default comes from $FORWARDED_ALLOW_IPS.
        forwarded_allow_ips=cfg.forwarded_allow_ips,
    )
