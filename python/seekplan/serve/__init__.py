"""`seekplan serve`: a durable, tape-aware staging service speaking the WLCG
Tape REST API (v1). See docs/serve.md.

:func:`build` wires a config into a service and its ASGI app: the catalog,
the database, the scheduler (requester strategy, tape-system queue, per-tape
read plans), the backend and the HTTP layer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from seekplan.serve.config import StageConfig

if TYPE_CHECKING:
    from fastapi import FastAPI

    from seekplan.serve.service import Service


def hardware_label(drive: str, library: dict[str, Any]) -> str:
    """What the status page says the service models: the catalogued drive
    and the library (a catalogued robot, or the recall config's figures)."""
    from seekplan.catalog import drive_entry, load_robots

    robot = library.get("robot")
    if isinstance(robot, str):
        robots = load_robots()
        where = f"library {robot} ({robots[robot].title})" if robot in robots else robot
    else:
        where = "library of the recall defaults (no catalogued robot)"
    return f"drive {drive} ({drive_entry(drive).title}); {where}"


def build(cfg: StageConfig) -> tuple[FastAPI, Service]:
    """The app and its (not yet started) service for a checked config."""
    from seekplan.catalog import make_drive
    from seekplan.errors import SeekplanError
    from seekplan.hardware import recall_hardware
    from seekplan.io import output_dir
    from seekplan.serve import db
    from seekplan.serve.api import create_app, load_tokens
    from seekplan.serve.backend import BACKENDS, BackendContext
    from seekplan.serve.catalog import check_extents, load_catalog, ltfs_catalog
    from seekplan.serve.clock import Clock, ModelledClock
    from seekplan.serve.config import duration_s
    from seekplan.serve.faults import FaultInjector
    from seekplan.serve.guard import DatabaseGuard
    from seekplan.serve.requester import make_requester
    from seekplan.serve.scheduler import Scheduler
    from seekplan.serve.service import Service, buffer_dir

    recall = cfg.recall()
    library = recall["library"]
    hardware = recall_hardware(recall)
    model = make_drive(cfg.drive)
    if cfg.catalog is not None:
        catalog = load_catalog(cfg.catalog)
    elif cfg.ltfs_root is not None:
        catalog = ltfs_catalog(cfg.ltfs_root)
    else:
        raise SeekplanError("give a catalog (--catalog CSV) or an LTFS root (ltfs_root)")
    capacity = int(model.capacity)
    block_bytes = int(model.block_bytes)
    check_extents(catalog, block_bytes, capacity, cfg.drive)
    tokens = load_tokens(cfg.tokens) if cfg.tokens is not None else None
    tape_capacity = (
        round(cfg.tape_capacity_gb * 1e9)
        if cfg.tape_capacity_gb is not None
        else capacity * block_bytes
    )
    requester = make_requester(
        recall["strategy"], catalog, block_bytes, tape_capacity, recall["seed"]
    )
    scheduler = Scheduler(
        requester,
        catalog,
        model,
        cfg.order,
        library["queue_size"],
        library["drives"],
        auto_tapes=cfg.auto_tapes(),
    )
    kind = BACKENDS[cfg.backend]
    clock = ModelledClock(cfg.time_scale) if kind.simulated_clock else Clock(1.0)
    root = Path(cfg.ltfs_root) if cfg.ltfs_root is not None else None
    backend = kind.build(
        BackendContext(
            hardware=hardware,
            read_model=library["read_model"],
            drive_model=model,
            tape_capacity_bytes=tape_capacity,
            clock=clock,
            buffer=output_dir(buffer_dir(cfg.db, cfg.buffer), "buffer"),
            ltfs_root=root,
            faults=FaultInjector(cfg.inject) if cfg.inject is not None else None,
        )
    )
    engine = db.connect(cfg.db, cfg.full_sync)
    service = Service(
        catalog=catalog,
        engine=engine,
        backend=backend,
        scheduler=scheduler,
        clock=clock,
        hardware=hardware,
        max_files=cfg.limits.max_files_per_request,
        max_active=cfg.limits.max_active_requests_per_client,
        retry_after_s=cfg.limits.retry_after_s,
        unavailable_tapes=cfg.unavailable_tapes,
        retry=cfg.retry,
        deadline=cfg.read_deadline,
        drive_repair_s=cfg.drive_repair_s,
        mount_deadline_s=cfg.mount_deadline_s,
        default_lifetime_s=duration_s(cfg.default_disk_lifetime),
        max_lifetime_s=duration_s(cfg.max_disk_lifetime),
        guard=DatabaseGuard(engine, engine.url.render_as_string(hide_password=True)),
        models=hardware_label(cfg.drive, cfg.library),
    )
    app = create_app(service, cfg.sitename, cfg.description, tokens, cfg.limits.max_body_bytes)
    return app, service
