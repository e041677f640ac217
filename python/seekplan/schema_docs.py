"""Renders docs/config-reference.md from the core's config schemas, so the
reference cannot drift from what the core accepts. Regenerate with
``python -m seekplan.schema_docs > docs/config-reference.md``."""

from __future__ import annotations

import json
from typing import Any

from seekplan import _core


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        rest = {k: v for k, v in node.items() if k != "$ref"}
        return {**defs[ref.removeprefix("#/$defs/")], **rest}
    return node


def _type(node: dict[str, Any]) -> str:
    t = node.get("type")
    if isinstance(t, list):
        return " or ".join(str(x) for x in t)
    if t is not None:
        return str(t)
    if "const" in node:
        return json.dumps(node["const"])
    return "see below" if "oneOf" in node else "any"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _rows(node: dict[str, Any], defs: dict[str, Any], prefix: str, out: list[str]) -> None:
    node = _resolve(node, defs)
    for name, prop in node.get("properties", {}).items():
        path = f"{prefix}{name}"
        full = _resolve(prop, defs)
        default = json.dumps(full["default"]) if "default" in full else "required"
        if full.get("type") == "object" and "properties" in full:
            default = "(section)"
        out.append(
            f"| `{path}` | {_type(full)} | {_cell(default)} | "
            f"{_cell(str(full.get('description', '')))} |"
        )
        if "properties" in full:
            _rows(full, defs, f"{path}.", out)
        for variant in full.get("oneOf", []):
            v = _resolve(variant, defs)
            if "const" in v:  # one value of a documented string enum
                doc = _cell(str(v.get("description", "")))
                out.append(f"| `{path}` (= {json.dumps(v['const'])}) | {_type(v)} | | {doc} |")
                continue
            tag = next(
                (f"{k}: {p['const']}" for k, p in v.get("properties", {}).items() if "const" in p),
                "",
            )
            out.append(f"| `{path}` ({tag}) | object | | {_cell(str(v.get('description', '')))} |")
            _rows(v, defs, f"{path}.", out)


def render() -> str:
    """The whole config reference as Markdown."""
    lines = [
        "# Config reference",
        "",
        "Generated from the core's JSON Schemas by `python -m seekplan.schema_docs`;",
        "do not edit by hand (`seekplan schema NAME` prints the schema itself).",
        "",
        "Configs are YAML. A number may be written with an exponent and no dot",
        "(`1e9`, `2E-3`): seekplan reads it as a number, as JSON and YAML 1.2 do",
        "(YAML 1.1 readers would take it for text). Numbers YAML 1.1 reads",
        "otherwise (`1:30` as 90 in base 60, `012` as octal 10) are refused, and so",
        "is a key given twice in one mapping.",
        "",
    ]
    for name, description in _core.schema_names():
        schema = json.loads(_core.schema(name))
        lines += [f"## `{name}`", "", description, ""]
        lines += ["| field | type | default | meaning |", "|---|---|---|---|"]
        rows: list[str] = []
        _rows(schema, schema.get("$defs", {}), "", rows)
        lines += rows
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
