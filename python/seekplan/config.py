"""Config files: YAML in, checked by the core (recall, archive, media) or by a
pydantic model (the catalog, the service), and one clear error naming the
file, the line, the field and the bad value when something is wrong."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from seekplan.errors import SeekplanError, quote, require_path
from seekplan.io import non_finite_field, read_text

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

# A config is a few hundred values; YAML aliases can make a 400-byte file
# expand to hundreds of millions (the "billion laughs"). Beyond this many
# values once aliases are expanded, the file is refused before anything
# walks, prints or serialises it.
MAX_CONFIG_VALUES = 100_000
# Longest config file read: PyYAML (pure Python) took a minute and 1.6 GB
# on a 10 MB list, so the 64 MB any text input may have would take
# minutes and ~10 GB. A real config is a few kB; 1 MiB holds that many values.
MAX_CONFIG_CHARS = 1 << 20


def explain(err: ValidationError, origin: str) -> SeekplanError:
    """The first validation problem as ``origin: field.path: message (got value)``."""
    first = err.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "config"
    return SeekplanError(f"{origin}: {field}: {first['msg']} (got {quote(first.get('input'))})")


def validate(model: type[M], data: Any, origin: str = "config") -> M:
    """``data`` (parsed YAML/JSON; empty means all defaults) checked against ``model``."""
    try:
        return model.model_validate(settings(data, origin))
    except ValidationError as e:
        raise explain(e, origin) from None


def _count_values(data: Any, limit: int) -> int:
    """Values in ``data`` with aliases expanded, counting stops past ``limit``."""
    seen = 0
    stack = [data]
    while stack and seen <= limit:
        item = stack.pop()
        seen += 1
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return seen


#: What a config value may be: what JSON holds (YAML's dates, sets and
#: binary are not, and would fail deep inside a check without a field name).
PLAIN = (dict, list, str, int, float, bool, type(None))


def _has_nul(value: Any) -> bool:
    return isinstance(value, str) and "\0" in value


def _first_foreign(data: Any) -> tuple[str, Any] | None:
    """The key path and value of the first value (or key) in ``data`` that
    is not of :data:`PLAIN` types, or is text holding a NUL character (which
    no path or name holds, and which the OS refuses in a path), if any; keys
    may be numbers too."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, item = stack.pop()
        if not isinstance(item, PLAIN) or _has_nul(item):
            return where or "config", item
        if isinstance(item, dict):
            for key, value in item.items():
                path = f"{where}.{key}" if where else str(key)
                if not isinstance(key, str | int | float | bool | None) or _has_nul(key):
                    return path, key
                stack.append((path, value))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(item))
    return None


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, reading a number with an exponent and no dot
    (``1e9``, ``2E-3``) as a float, as YAML 1.2 and JSON do: PyYAML follows
    YAML 1.1, which reads it as text, so ``rate_mb_s: 1e3`` failed with
    "expected f64"; and refusing a key given twice."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._checked: set[int] = set()

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        """Refuses a key given twice in one mapping: PyYAML kept the last
        and dropped the first without a word (``drives: 2`` then ``drives:
        20`` ran with 20 drives). Keys merged in with ``<<`` may still be
        overridden. Checked on a mapping's first visit, before the merge
        rewrites it."""
        if id(node) not in self._checked:
            self._checked.add(id(node))
            seen: dict[Any, yaml.Mark] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node.start_mark)
                except TypeError:
                    continue  # an unhashable key: PyYAML's own error names it
                if first is not key_node.start_mark:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping",
                        node.start_mark,
                        f"key {quote(key)} appears twice (first on line {first.line + 1})",
                        key_node.start_mark,
                    )
        super().flatten_mapping(node)


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)

#: YAML 1.1's base-60 numbers (PyYAML read ``duration_h: 1:30`` as 90)
#: and leading-zero octal ones (``drives: 012`` as 10), without a word.
_BASE_60 = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")


def _number(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    """An int or float, refusing the numbers YAML 1.1 reads otherwise than
    JSON and YAML 1.2 do (``007`` means 7 either way and passes)."""
    text = str(loader.construct_scalar(node))
    digits = text.replace("_", "")
    value = (
        loader.construct_yaml_int(node)
        if node.tag.endswith(":int")
        else loader.construct_yaml_float(node)
    )
    if _BASE_60.match(text) or (_OCTAL.match(text) and value != int(digits, 10)):
        raise yaml.constructor.ConstructorError(
            None,
            None,
            f"{text!r} is a number only in YAML 1.1, which reads it as {value} (base 60 or "
            "octal); write the number in decimal, or quote it to make it text",
            node.start_mark,
        )
    return value


_Loader.add_constructor("tag:yaml.org,2002:int", _number)
_Loader.add_constructor("tag:yaml.org,2002:float", _number)


def _yaml_problem(path: Path, e: yaml.MarkedYAMLError) -> str:
    """A YAML syntax error in one line: the file, where (1-based line and
    column) and what, without PyYAML's echo of the source."""
    mark = e.problem_mark or e.context_mark
    where = f"{path} line {mark.line + 1}, column {mark.column + 1}" if mark else str(path)
    context = f" ({e.context})" if e.context else ""
    return f"{where}: not valid YAML: {e.problem or 'syntax error'}{context}"


def load_yaml(path: str | Path) -> Any:
    """The parsed content of a YAML file; unreadable files, bad YAML,
    documents that expand past :data:`MAX_CONFIG_VALUES` values and values
    JSON cannot hold (dates, sets, binary) are errors naming the field."""
    p = require_path(path, "config")
    text = read_text(p, "config", MAX_CONFIG_CHARS)
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        raise SeekplanError(_yaml_problem(p, e)) from None
    except yaml.YAMLError as e:
        raise SeekplanError(f"{p}: not valid YAML ({e})") from None
    except RecursionError:
        raise SeekplanError(f"{p}: nested too deeply to be a config") from None
    if _count_values(data, MAX_CONFIG_VALUES) > MAX_CONFIG_VALUES:
        raise SeekplanError(
            f"{p}: more than {MAX_CONFIG_VALUES:,} values once YAML aliases are expanded; "
            "a config has far fewer (an alias bomb?)"
        )
    foreign = _first_foreign(data)
    if foreign is not None:
        where, value = foreign
        if _has_nul(value):
            shown = where.replace("\0", "\\0")
            raise SeekplanError(f"{p}: {shown}: text holds a NUL character (\\0)")
        raise SeekplanError(
            f"{p}: {where}: {quote(value)} is a YAML {type(value).__name__}; a config holds "
            "numbers, text, lists and mappings (quote it to make it text)"
        )
    return data


#: The field an error names at the start of its text (after the file's
#: name and the core's "invalid " where it says so): ``library.drives``,
#: serde's ``sites[0].name`` or pydantic's ``catalog.0.path``, then a colon
#: or a space.
_FIELD = re.compile(r"(?:invalid )?([A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*)[:\s]")


def _parts(field: str) -> list[str]:
    """A key path's keys and list indices: ``sites[0].name`` and
    ``sites.0.name`` both give ``sites``, ``0``, ``name``."""
    return re.findall(r"[^.\[\]]+", field)


def _line_of(text: str, field: str) -> int | None:
    """The 1-based line of ``field`` (a key path) in the YAML ``text``: its
    key's line, or its deepest enclosing key's where the field itself is
    not in the file (a missing setting); None where not even its first key
    is."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError):
        return None
    line = None
    for part in _parts(field):
        if isinstance(node, yaml.MappingNode):
            found = [
                (k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == part
            ]
            if not found:
                break
            key, node = found[0]
            line = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            node = node.value[int(part)]
            line = node.start_mark.line + 1
        else:
            break
    return line


@contextmanager
def lines_of(path: Path, skip: Collection[str] = ()) -> Iterator[None]:
    """Adds the line to an error about the YAML file ``path`` that names a
    field but no line (``PATH: field: ...`` becomes ``PATH line N: field:
    ...``): the checks see parsed values, which carry no lines, so the line
    is looked up in the file once something failed. Fields under a
    top-level key in ``skip`` (given on the command line instead) are left
    as they are."""
    try:
        yield
    except SeekplanError as e:
        head = f"{path}: "
        text = str(e)
        field = _FIELD.match(text, len(head)) if text.startswith(head) else None
        if field is None or _parts(field.group(1))[0] in skip:
            raise
        try:
            line = _line_of(read_text(path, "config", MAX_CONFIG_CHARS), field.group(1))
        except SeekplanError:
            line = None
        if line is None:
            raise
        raise type(e)(f"{path} line {line}: {text[len(head) :]}") from None


def load_config_file(path: str | Path, parse: Callable[[Any, str], T]) -> T:
    """The YAML config at ``path`` as ``parse(data, origin)`` makes it, an
    error naming the file, the line and the field (see :func:`lines_of`):
    what every simulator's ``load_config`` does."""
    p = require_path(path, "config")
    with lines_of(p):
        return parse(load_yaml(p), str(p))


def settings(data: Any, origin: str) -> dict[str, Any]:
    """A config file's mapping of settings: empty for an empty file; an error
    naming ``origin`` for anything but a mapping."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SeekplanError(f"{origin}: expected a mapping of settings, got {type(data).__name__}")
    return data


def require_finite(data: Any, prefix: str = "") -> None:
    """Refuses a NaN or infinity anywhere in ``data`` (YAML's ``.nan``,
    ``.inf``), naming its key path after ``prefix``: JSON cannot carry it to
    the core, whose parser said only "expected value"."""
    field = non_finite_field(data)
    if field is not None:
        raise SeekplanError(f"{prefix}{field}: not a finite number (NaN or infinity)")


def checked_by_core(check: Callable[[str], str], data: dict[str, Any], origin: str) -> Any:
    """``data`` as the core's ``check`` returns it (every default filled in),
    or its error as a SeekplanError naming ``origin``."""
    require_finite(data, f"{origin}: ")
    try:
        return json.loads(check(json.dumps(data)))
    except ValueError as e:
        raise SeekplanError(f"{origin}: {e}") from None


@dataclass(frozen=True)
class CoreConfig:
    """A config as the Rust core checked it, every default filled in: the
    shape recall's, archive's and the mount replay's configs share."""

    data: dict[str, Any]

    def to_json(self) -> str:
        """The config as the core takes it."""
        return json.dumps(self.data)
