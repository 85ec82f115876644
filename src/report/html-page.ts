// The frame every HTML report shares: one self-contained page, styles and
// script inline, nothing fetched (the policy says so to the browser), every
// text from a report escaped.

export function page(title: string, header: string, body: string, script = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${esc(title)}</h1>${header}</header>
${body}
${script === "" ? "" : `<script>${script}</script>`}
</body>
</html>
`;
}

export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:76rem;padding:1rem 1.5rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .3rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}h3{font-size:1rem;margin:.6rem 0 .2rem}
table{border-collapse:collapse;margin:.5rem 0;width:100%}th,td{border:1px solid #d0d7de;padding:.2rem .45rem;text-align:left;vertical-align:top}caption{text-align:left;font-weight:600;padding:.2rem 0}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.85rem}code{font-size:.85rem}
a{color:#0550ae}a.anchor{color:#57606a;text-decoration:none;font-weight:400;margin-left:.3rem}
nav.toc{background:#f6f8fa;border:1px solid #d0d7de;padding:.4rem .9rem;margin:1rem 0}nav.toc h2{border:0;margin:.2rem 0;font-size:1rem}
nav.toc ol{margin:.2rem 0;padding-left:1.4rem}nav.toc li{margin:.1rem 0}.muted{color:#57606a;font-size:.9rem}
form#filters{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;background:#f6f8fa;border:1px solid #d0d7de;padding:.5rem .75rem;margin:1rem 0}
fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}legend{font-weight:600;float:left;margin-right:.5rem}
details.object{border-left:4px solid #8c959f;padding:.1rem .75rem;margin:.5rem 0}details.object>summary{cursor:pointer;font-weight:600}
details.object.add{border-color:#1a7f37}details.object.delete,details.object.replace{border-color:#cf222e}details.object.update,details.object.rename{border-color:#9a6700}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:0 .4rem;border-radius:.6rem;background:#eaeef2;color:#1b1f24}
.badge.add{background:#dafbe1;color:#116329}.badge.delete,.badge.replace{background:#ffebe9;color:#a40e26}.badge.update,.badge.rename{background:#fff8c5;color:#6f4700}
.source{font-weight:400;color:#57606a;font-size:.85rem;margin-left:.4rem}.engine{margin:.3rem 0;color:#1b1f24}
.engine.warn,.replacement{background:#ffebe9;border:1px solid #cf222e;color:#82071e;padding:.4rem .6rem}
.change{margin:.45rem 0}.change .path{font-weight:600}.tags{color:#57606a;font-size:.8rem;margin-left:.4rem}
pre.diff{background:#f6f8fa;border:1px solid #d0d7de;padding:.25rem .4rem;margin-top:.15rem}
pre.diff span{display:block}.add{background:#e6ffec;color:#116329}.del{background:#ffebe9;color:#82071e}.hunk{color:#0550ae}.ctx{color:#57606a}
.add ins,.add mark{background:#abf2bc;color:inherit;text-decoration:none}.del del,.del mark{background:#ff818266;color:inherit;text-decoration:none}
tr.problem th,tr.problem td{background:#ffebe9}tr.outdated th,tr.outdated td{background:#fff8c5}
.notes{color:#57606a;font-size:.9rem}.summary{font-weight:600}.cut{color:#57606a;font-style:italic}[hidden]{display:none!important}
`;
