"""MkDocs hooks for the docs site (mkdocs.yml, ``hooks``).

README.md and BENCHMARKS.md live at the repository's root, where a reader of the checkout
finds them; the site shows them as its home page (``index.md``) and ``benchmarks.md``, their
links to ``docs/NAME.md`` made site links. The guide pages link to it as ``../BENCHMARKS.md`` and to
other files of the checkout (``../examples/...``) as paths a checkout resolves; on the site
those become the benchmarks page and plain code spans, so that every link the site keeps
resolves."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\[([^\]]+)\]\(\.\./([^)#\s]+)(#[^)\s]*)?\)")
DOCS_LINK = re.compile(r"\]\(docs/([^)]+)\)")


def _site_link(match: re.Match[str]) -> str:
    text, path, anchor = match.group(1), match.group(2), match.group(3) or ""
    if path == "BENCHMARKS.md":
        return f"[{text}](benchmarks.md{anchor})"
    if path == "README.md":
        return f"[{text}](index.md{anchor})"
    # A file of the checkout that is not a page: named, not linked.
    return text if text.startswith("`") else f"{text} (`{path}`)"


ROOT_PAGES = {"README.md": "index.md", "BENCHMARKS.md": "benchmarks.md"}


def on_files(files: Files, config: Any) -> Files:
    for source, page in ROOT_PAGES.items():
        text = (ROOT / source).read_text(encoding="utf-8")
        # From the root, the guide pages are docs/NAME.md; on the site they are NAME.md.
        text = DOCS_LINK.sub(r"](\1)", text)
        for other, other_page in ROOT_PAGES.items():
            text = text.replace(f"]({other}", f"]({other_page}")
        files.append(File.generated(config, page, content=text))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return LINK.sub(_site_link, markdown)
