#!/usr/bin/env python3
"""Writes the recorded arXiv answers the network tests serve (tests/net.rs).

Run from the repository root: python3 tests/data/net/make.py

Each `getrecord/<id>.xml` is arXiv's OAI-PMH GetRecord answer (metadataPrefix=arXivRaw) for one
paper: the envelope arXiv sends around one <record> of ../arxiv/vectors.arxivraw.xml and
../arxiv/extras.arxivraw.xml (whose papers, texts and v1 dates are those of the published
records in tests/data/records.json; see ../arxiv/make_fixtures.py). The expected numbers come
from records.json, never from pith. Also written: arXiv's error answers (idDoesNotExist,
badArgument) and a deleted record, in the form export.arxiv.org sends them.
"""
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARXIV = HERE.parent / "arxiv"
OUT = HERE / "getrecord"

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
<responseDate>2026-05-20T10:00:00Z</responseDate>
"""


def request(ident):
    return f'<request verb="GetRecord" identifier="oai:arXiv.org:{ident}" metadataPrefix="arXivRaw">http://export.arxiv.org/oai2</request>\n'


def main():
    OUT.mkdir(exist_ok=True)
    for src in ["vectors.arxivraw.xml", "extras.arxivraw.xml"]:
        text = (ARXIV / src).read_text()
        for rec in re.findall(r"<record>.*?</record>", text, re.S):
            ident = re.search(r"<identifier>oai:arXiv.org:([^<]+)</identifier>", rec).group(1)
            body = HEAD + request(ident) + "<GetRecord>\n" + rec + "\n</GetRecord>\n</OAI-PMH>\n"
            (OUT / (ident.replace("/", "_") + ".xml")).write_text(body)
    (OUT / "error-idDoesNotExist.xml").write_text(
        HEAD + request("2401.99999")
        + '<error code="idDoesNotExist">The value of the identifier argument is unknown or illegal in this repository.</error>\n</OAI-PMH>\n')
    (OUT / "deleted-0704.0002.xml").write_text(
        HEAD + request("0704.0002") + "<GetRecord>\n"
        + '<record><header status="deleted"><identifier>oai:arXiv.org:0704.0002</identifier><datestamp>2008-11-13</datestamp></header></record>\n'
        + "</GetRecord>\n</OAI-PMH>\n")


main()
