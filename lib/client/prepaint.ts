/**
 * Inline scripts that run before the first paint, while the page's modules are still loading.
 * Each is static text (what it needs comes from the markup around it) so that the CSP can allow it
 * by its hash (`PREPAINT_SCRIPTS`, read by lib/http/security.ts) instead of allowing inline script.
 */
import { TEAM_SIZE } from "@/lib/domain/team_rules.ts";
import { SELECTION_KEY } from "@/lib/client/selection.ts";

/**
 * The checkout without 5 stored picks for its competition shows its invalid state at first paint
 * instead of after hydration. It follows `<div hidden>` (the invalid state) and
 * `<div data-checkout-body="{competition id}">` (the form's loading state), and swaps the two when
 * session storage holds no full team for that competition (the rule of `loadSelection`).
 */
export const CHECKOUT_PREPAINT = `(function(s){` +
  `var b=s.previousElementSibling,i=b.previousElementSibling,n=0;` +
  `try{var v=JSON.parse(sessionStorage.getItem(${JSON.stringify(SELECTION_KEY)}));` +
  `if(v&&String(v.competitionId)===b.dataset.checkoutBody&&Array.isArray(v.playerIds))` +
  `n=new Set(v.playerIds).size}catch(e){}` +
  `if(n!==${TEAM_SIZE}){i.hidden=false;b.hidden=true}})(document.currentScript)`;

/**
 * Server-rendered times (`<time datetime>`, components/LocalTime.tsx, in UTC) shown in the
 * visitor's own zone before the first paint, as `formatWhen` writes them: "Fri 27 Nov, 17:06 CET".
 * Placed after the times it rewrites, on pages whose times are not in an island.
 */
export const LOCAL_TIMES_PREPAINT = `(function(){try{var f=new Intl.DateTimeFormat("en-GB",` +
  `{weekday:"short",day:"numeric",month:"short",hour:"2-digit",minute:"2-digit",` +
  `hourCycle:"h23",timeZoneName:"short"});` +
  `document.querySelectorAll("time[datetime]").forEach(function(t){var p={};` +
  `f.formatToParts(new Date(t.dateTime)).forEach(function(x){p[x.type]=x.value});` +
  `t.textContent=p.weekday+" "+p.day+" "+p.month+", "+p.hour+":"+p.minute+" "+p.timeZoneName})` +
  `}catch(e){}})()`;

/**
 * Every prepaint script with the pages that inline it (a path prefix), for the
 * Content-Security-Policy: a page's policy allows only its own, so the others cost it no bytes.
 */
export const PREPAINT_SCRIPTS: { script: string; pages: string }[] = [
  { script: CHECKOUT_PREPAINT, pages: "/payment/" },
  { script: LOCAL_TIMES_PREPAINT, pages: "/confirmation/" },
];
