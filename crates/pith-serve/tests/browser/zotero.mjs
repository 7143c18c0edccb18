// Runs Zotero's own translators, as Zotero runs them, on what `pith serve` answers and on arXiv's
// API answer for the same papers; prints the items they make. Run by tests/zotero.rs:
//
//   node zotero.mjs PLAN.json OUT.json
//
// PLAN: {"zotero": DIR, "papers": [{"id", "url", "atom", "ris", "bib", "csl"}]}: DIR is
// tests/vendor/zotero (the vendored translators, zotero/utilities and Zotero's schema, see its
// README); per paper, the arXiv abstract page Zotero would save (`url`), the file holding arXiv's
// API answer for it, and the files holding the server's `.ris`, `.bib` and `.csl.json`. OUT: per
// paper, the items of arXiv.org.js (from the page URL and the API answer), RIS.js, BibTeX.js and
// CSL JSON.js.
//
// The sandbox is a small one (zotero/translate's is a browser's): the translator's code, with
// `Zotero`, `Z`, `ZU` (zotero/utilities with the functions zotero/translate adds in
// src/utilities_translate.js), `text`, `attr`, `requestText` (answered from the plan's files,
// nothing reaches the network) and `DOMParser` (jsdom's).

import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { JSDOM } from 'jsdom';

const require = createRequire(import.meta.url);

/** Zotero's globals as zotero/translate's README says a consumer sets them up: the schema,
 * the date formats, the cached types, the utilities. */
function loadZotero(dir) {
	const u = path.join(dir, 'utilities');
	const Zotero = { debug() {}, locale: 'en-US' };
	globalThis.Zotero = Zotero;
	Zotero.Utilities = require(path.join(u, 'utilities.js'));
	const CachedTypes = require(path.join(u, 'cachedTypes.js'));
	CachedTypes.setTypeSchema(require(path.join(u, 'resource/zoteroTypeSchemaData.js')));
	Zotero.ItemTypes = CachedTypes.ItemTypes;
	Zotero.ItemFields = CachedTypes.ItemFields;
	Zotero.CreatorTypes = CachedTypes.CreatorTypes;
	Zotero.Schema = require(path.join(u, 'schema.js'));
	Zotero.Schema.init(JSON.parse(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8')));
	Zotero.Date = require(path.join(u, 'date.js'));
	Zotero.Date.init(JSON.parse(fs.readFileSync(path.join(u, 'resource/dateFormats.json'), 'utf8')));
	Zotero.Utilities.Item = require(path.join(u, 'utilities_item.js'));
	return Zotero;
}

/** The `ZU` translators see (zotero/translate, src/utilities_translate.js). */
function translatorUtilities(Zotero) {
	const ZU = Object.create(Zotero.Utilities);
	ZU.formatDate = Zotero.Date.formatDate;
	ZU.strToDate = Zotero.Date.strToDate;
	ZU.strToISO = Zotero.Date.strToISO;
	ZU.itemTypeExists = Zotero.Utilities.Item.itemTypeExists;
	ZU.itemToCSLJSON = Zotero.Utilities.Item.itemToCSLJSON;
	ZU.itemFromCSLJSON = Zotero.Utilities.Item.itemFromCSLJSON;
	return ZU;
}

/** A translator's code: its file after the JSON header. */
function translatorCode(file) {
	const src = fs.readFileSync(file, 'utf8');
	return src.slice(src.indexOf('\n}\n') + 3);
}

/** The first element under `root` that `sel` selects. A browser's selector `primary_category`
 * also selects `arxiv:primary_category` of an XML document (a type selector with no namespace
 * matches the local name); jsdom's does not, so a bare name is looked up by local name. */
function select(root, sel, index) {
	const all = /^[A-Za-z_][\w-]*$/.test(sel)
		? root.getElementsByTagNameNS('*', sel)
		: root.querySelectorAll(sel);
	return all.item(index || 0);
}

/** Runs `call` in a sandbox holding translator `file`; the items it completed. */
async function run(Zotero, file, { input = '', call, doc = null, url = '', answers = {} }) {
	const items = [];
	let pos = 0;
	const Z = {
		Item: function (type) {
			this.itemType = type;
			this.creators = [];
			this.notes = [];
			this.tags = [];
			this.attachments = [];
			this.seeAlso = [];
			this.complete = function () {
				delete this.complete;
				items.push(this);
			};
		},
		// Import translators read a line (no argument) or `n` characters.
		read(n) {
			if (pos >= input.length) return false;
			if (n === undefined) {
				let nl = input.indexOf('\n', pos);
				if (nl < 0) nl = input.length;
				const line = input.slice(pos, nl);
				pos = nl + 1;
				return line;
			}
			const s = input.slice(pos, pos + n);
			pos += n;
			return s;
		},
		debug() {},
		getOption() {},
		getHiddenPref() {},
		setProgress() {},
		loadTranslator() {
			throw new Error(`${path.basename(file)} asked for another translator`);
		},
		Utilities: translatorUtilities(Zotero),
	};
	const onDoc = (f) => (...args) => {
		if (typeof args[0] == 'string') args.unshift(doc);
		return f(...args);
	};
	const sandbox = {
		Zotero: Z,
		Z,
		ZU: Z.Utilities,
		DOMParser: new JSDOM('').window.DOMParser,
		text: onDoc((root, sel, i) => (select(root, sel, i)?.textContent ?? '').trim()),
		attr: onDoc((root, sel, a, i) => (select(root, sel, i)?.getAttribute(a) ?? '').trim()),
		requestText: async (u) => {
			if (!(u in answers)) throw new Error(`${path.basename(file)} asked for ${u}`);
			return answers[u];
		},
		doc,
		url,
	};
	vm.createContext(sandbox);
	vm.runInContext(translatorCode(file), sandbox, { filename: path.basename(file) });
	await vm.runInContext(call, sandbox);
	// Zotero stores a date as what strToISO reads of it ("February 6, 2024" as 2024-02-06).
	for (const it of items) if (it.date) it.dateISO = Zotero.Date.strToISO(it.date);
	// ZU.itemFromCSLJSON also gives each creator its type's database id; Zotero saves a creator
	// by its type's name.
	for (const it of items) for (const c of it.creators) delete c.creatorTypeID;
	return JSON.parse(JSON.stringify(items));
}

const [planFile, outFile] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
const Zotero = loadZotero(plan.zotero);
const translator = (name) => path.join(plan.zotero, 'translators', name);
const out = [];
for (const p of plan.papers) {
	const doc = new JSDOM('<!DOCTYPE html><html><body></body></html>', { url: p.url }).window.document;
	// What arXiv.org.js asks arXiv's API for the page `url` (its doWeb): the id as the URL has it.
	const id = p.url.match(/(?:pdf|abs)\/([^?#]+)/)[1];
	const api = `https://export.arxiv.org/api/query?id_list=${encodeURIComponent(id)}&max_results=1`;
	out.push({
		id: p.id,
		arxiv: await run(Zotero, translator('arXiv.org.js'), {
			call: 'doWeb(doc, url)',
			doc,
			url: p.url,
			answers: { [api]: fs.readFileSync(p.atom, 'utf8') },
		}),
		ris: await run(Zotero, translator('RIS.js'), {
			input: fs.readFileSync(p.ris, 'utf8'),
			call: 'doImport()',
		}),
		bib: await run(Zotero, translator('BibTeX.js'), {
			input: fs.readFileSync(p.bib, 'utf8'),
			call: 'doImport()',
		}),
		csl: await run(Zotero, translator('CSL JSON.js'), {
			input: fs.readFileSync(p.csl, 'utf8'),
			call: 'doImport()',
		}),
	});
}
fs.writeFileSync(outFile, JSON.stringify(out, null, 1));
