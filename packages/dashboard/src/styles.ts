// The dashboard's one stylesheet: system fonts (no external font), light and dark themes from
// prefers-color-scheme, layouts that fit 390 to 1440 px, visible focus everywhere.

/** The stylesheet, served at `<dashboard>/assets/app.css`. */
export const DASHBOARD_CSS = `
:root{color-scheme:light dark;--bg:#f7f7f8;--panel:#fff;--text:#16181d;--muted:#555b66;--line:#d9dce1;
--accent:#1d4ed8;--accent-text:#fff;--danger:#b42318;--ok:#067647;--warn:#8a5300;--code:#f0f1f3;
--radius:10px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;font-size:16px;line-height:1.5}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--panel:#181b21;--text:#eceef2;--muted:#a4abb8;
--line:#2e333d;--accent:#8fb3ff;--accent-text:#0b1020;--danger:#ff8f84;--ok:#6fdca7;--warn:#f5c46b;--code:#232731}}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;background:var(--bg);color:var(--text);overflow-wrap:anywhere}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
input:focus,input:focus-within{outline:3px solid var(--accent);outline-offset:2px}
fieldset fieldset{margin-top:.75rem}
.skip{position:absolute;left:-999px;top:0;background:var(--panel);padding:.5rem 1rem;z-index:9}
.skip:focus{left:.5rem}
header.top{background:var(--panel);border-bottom:1px solid var(--line)}
.bar{max-width:1200px;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
.brand{font-weight:700;font-size:1.1rem;text-decoration:none;color:var(--text);margin-right:auto}
nav.main ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0}
nav.main a{display:block;padding:.4rem .7rem;border-radius:8px;text-decoration:none;color:var(--text)}
nav.main a[aria-current=page]{background:var(--code);font-weight:600}
.env{display:inline-flex;border:1px solid var(--line);border-radius:999px;overflow:hidden}
.env a{padding:.3rem .8rem;text-decoration:none;color:var(--text);font-size:.9rem}
.env a[aria-current=true]{background:var(--accent);color:var(--accent-text);font-weight:600}
.env-banner{max-width:1200px;margin:.75rem auto 0;padding:0 1rem;color:var(--muted);font-size:.9rem}
main{max-width:1200px;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);padding:1rem;margin:0 0 1rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:1rem;margin-bottom:1rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);padding:1rem}
.card .n{font-size:1.8rem;font-weight:700}
.card p{margin:.2rem 0;color:var(--muted)}
meter{width:100%;height:.8rem}
.table{overflow-x:auto;background:var(--panel);border:1px solid var(--line);border-radius:var(--radius)}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;padding:.55rem .7rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:.85rem;white-space:nowrap}
tr:last-child td{border-bottom:0}
code,pre,textarea.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88rem}
code{background:var(--code);padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
.hint{color:var(--muted);font-size:.88rem;font-weight:400;margin:.2rem 0}
input[type=text],input[type=email],input[type=password],input[type=number],input[type=search],
input[type=datetime-local],input[type=date],input[type=time],input[type=url],select,textarea{
width:100%;max-width:32rem;padding:.5rem .6rem;border:1px solid var(--muted);border-radius:8px;background:var(--panel);color:var(--text);font:inherit}
input[type=color]{width:3rem;height:2.2rem;border:1px solid var(--muted);border-radius:6px;background:var(--panel);padding:2px}
textarea{min-height:5rem}
input[type=checkbox],input[type=radio]{accent-color:var(--accent);width:1.1rem;height:1.1rem;flex:none;margin:0 .1rem}
fieldset{border:1px solid var(--line);border-radius:var(--radius);padding:.5rem 1rem 1rem;margin:0 0 1rem;min-width:0}
legend{font-weight:700;padding:0 .3rem}
.check{display:flex;gap:.4rem;align-items:center;font-weight:400;margin:.3rem 0}
.checks{display:flex;flex-wrap:wrap;gap:.2rem 1rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.row>div{min-width:8rem}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:8px;border:1px solid var(--accent);
background:var(--accent);color:var(--accent-text);cursor:pointer;text-decoration:none;margin:.2rem 0}
/* A button's words never break inside, and a rule's events break only between words: a long
   destination URL beside them had squeezed "Remove" to a letter a line. */
button,.button{overflow-wrap:normal}.rules td+td{overflow-wrap:break-word}
button.secondary,.button.secondary{background:transparent;color:var(--accent)}
button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
@media (prefers-color-scheme:dark){button.danger{color:#1a0b0a}}
form.inline{display:inline}
form.role{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}form.role select{width:auto}form.role button{margin:0}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.notice{padding:.7rem 1rem;border-radius:8px;border:1px solid var(--ok);color:var(--ok);background:var(--panel);margin-bottom:1rem}
.error{padding:.7rem 1rem;border-radius:8px;border:1px solid var(--danger);color:var(--danger);background:var(--panel);margin-bottom:1rem}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.8rem;font-weight:600;border:1px solid var(--line);white-space:nowrap}
.badge.published,.badge.live,.badge.succeeded{color:var(--ok);border-color:var(--ok)}
.badge.revoked,.badge.failed,.badge.disabled{color:var(--danger);border-color:var(--danger)}
.badge.draft,.badge.pending,.badge.expiring{color:var(--warn);border-color:var(--warn)}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.secret input{font-family:ui-monospace,monospace;max-width:40rem}
.builder{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;align-items:start}
.preview{position:sticky;top:1rem}
.preview img{max-width:100%;height:auto;border:1px dashed var(--line);border-radius:8px;background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/16px 16px}
.snippet textarea{width:100%;max-width:none;min-height:4.5rem}
.snippet-body{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}.snippet-code{flex:1 1 18rem;min-width:0}
.snippet img.live{max-width:100%;height:auto;flex:0 1 auto}
.share-controls{align-items:flex-start}.share-controls>div{max-width:100%}.share-controls .hint{max-width:22rem}.share-controls .grow{flex:1 1 16rem}.share-controls .grow input{width:100%}label.inline{display:inline}
svg.bars{display:block;width:100%;height:160px;border-bottom:1px solid var(--line)}
svg.bars rect{fill:var(--accent)}
figure{margin:0 0 1rem}figcaption{font-weight:600;margin-bottom:.5rem}
.card h2,.panel h2,.panel h3{margin-top:0}
.card p.n{color:var(--text)}
svg.views-chart rect.unique{fill:var(--warn)}svg.views-chart rect.machine{fill:var(--muted)}
svg.clicks-chart rect.clicks{fill:var(--ok)}svg.clicks-chart rect.machine{fill:var(--muted)}.swatch.clicks{background:var(--ok)}
.downloads{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.legend{display:flex;flex-wrap:wrap;gap:.3rem .6rem;align-items:center;font-size:.85rem;margin:.3rem 0}
.swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:3px;background:var(--accent)}.swatch.unique{background:var(--warn)}.swatch.machine{background:var(--muted)}.legend .key{display:inline-flex;gap:.3rem;align-items:center;white-space:nowrap}
tbody th{color:var(--text);font-size:.95rem;white-space:normal}
ul.looks{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.6rem}
ul.looks li{display:flex;flex-direction:column;gap:.3rem}ul.looks li form button{margin:0}ul.looks+h3{margin-top:1rem}
ul.looks a{display:flex;flex-direction:column;gap:.2rem;padding:.5rem;border:1px solid var(--line);border-radius:8px;text-decoration:none;color:var(--text);flex:1}
form.save-look{margin-top:1rem}
ul.looks.gallery{grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:1rem}
ul.looks.gallery a{padding:.6rem;background:var(--panel)}ul.looks.gallery a:hover{border-color:var(--accent)}
.tags{display:flex;flex-wrap:wrap;gap:.25rem;margin-top:.1rem}.tags span{font-size:.78rem;padding:0 .45rem;border:1px solid var(--line);border-radius:999px;color:var(--muted)}
.start-look{margin:0 0 1rem}
ul.looks a[aria-current=true]{border:2px solid var(--accent)}ul.looks img{width:100%;height:auto;border-radius:6px}
.chart-labels{display:flex;justify-content:space-between;color:var(--muted);font-size:.8rem;padding:.2rem .5rem}
input.short{width:6rem}
td.thumb{width:136px}td.thumb img{display:block;width:120px;height:auto;border-radius:6px;border:1px solid var(--line)}
.row-actions{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}.row-actions .button,.row-actions button{padding:.3rem .7rem;font-size:.9rem;margin:0}
.field-error,.field-warning{font-size:.9rem;margin:.3rem 0;padding:.3rem .6rem;border-left:3px solid var(--danger);color:var(--danger);max-width:32rem}
.field-warning{border-color:var(--warn);color:var(--warn)}
[aria-invalid=true]{border-color:var(--danger)!important;border-width:2px!important}
.colour-pair{display:flex;gap:.4rem;align-items:center}
input.hex{width:7.5rem;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.narrow{max-width:28rem;margin:3rem auto}
.muted{color:var(--muted)}
.warn-text{color:var(--warn)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.pager{display:flex;gap:1rem;margin:1rem 0}
footer{max-width:1200px;margin:2rem auto;padding:1rem;color:var(--muted);font-size:.85rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
@media (max-width:800px){.builder{grid-template-columns:1fr}
.builder form :is(input,select,textarea,button){scroll-margin-top:16rem}
.builder .preview{order:-1;top:0;z-index:2;padding:.5rem;box-shadow:0 2px 6px rgb(0 0 0/.15)}
.builder .preview h2{font-size:1rem;margin:0}.builder .preview p{margin:.2rem 0}h1{font-size:1.35rem}}
@media (min-width:641px) and (max-width:800px){th.opt,td.opt{display:none}}
@media (max-width:640px){.table{overflow:visible;background:transparent;border:0;border-radius:0}
.table table,.table tbody,.table tr,.table td,.table tbody th{display:block;width:100%}
.table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.table tr{background:var(--panel);border:1px solid var(--line);border-radius:var(--radius);margin:0 0 .75rem;padding:.3rem 0}
.table td,.table tbody th{border:0;padding:.3rem .9rem;overflow-wrap:anywhere}
.table td[data-label]::before{content:attr(data-label);display:block;font-weight:600;font-size:.8rem;color:var(--muted)}
.table td[colspan]::before{display:none}
.secret input{min-width:0;flex:1 1 12rem}}
`;
