"""A verification as JUnit XML, for CI: one testcase per expectation (classname: input
validation, submission or time limit), a failure element for each that did not hold.
A name or message's control characters are written as escapes (text.printable): XML 1.0
cannot hold them, and a CI page would show them raw."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from pipeline.private import private_dir, private_writer
from pipeline.text import printable
from pipeline.verify.verification import Verification


def junit_xml(result: Verification) -> ET.ElementTree:
    suite = ET.Element(
        "testsuite",
        name=printable(f"verify {result.package.root.name}"),
        tests=str(len(result.checks)),
        failures=str(len(result.failures)),
        skipped=str(sum(c.skipped for c in result.checks)),
        errors="0",
    )
    for check in result.checks:
        name, detail = printable(check.name), printable(check.detail, lines=True)
        case = ET.SubElement(suite, "testcase", classname=check.kind, name=name)
        if check.skipped:
            ET.SubElement(case, "skipped", message=detail[:500])
        elif check.ok:  # a warning holds: its finding is told, not failed
            ET.SubElement(case, "system-out").text = (
                f"warning: {detail}" if check.warning else detail
            )
        else:
            failure = ET.SubElement(case, "failure", message=detail[:500])
            failure.text = detail
    suites = ET.Element(
        "testsuites", tests=suite.get("tests", "0"), failures=suite.get("failures", "0")
    )
    suites.append(suite)
    return ET.ElementTree(suites)


def write_junit(path: Path, result: Verification) -> Path:
    path = Path(path)
    private_dir(path.parent)
    tree = junit_xml(result)
    ET.indent(tree)
    with private_writer(path) as sink:
        tree.write(sink, encoding="utf-8", xml_declaration=True)
    return path
