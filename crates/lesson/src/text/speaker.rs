//! Who is speaking (issue 42, item 1): when two or more requests are alive at once (a Retry
//! pressed early, the lease runs), each narration line names the attempt and the side it
//! belongs to ("The stalled handler (attempt 1): …"), a step that packs several actors is told
//! as a numbered list, and each arrow of the sequence diagram gets a badge (①, ②) with its name for screen readers. With one request alive
//! nothing is added: the first steps of every story read as before.
//!
//! Everything here is computed from the run when asked (the core's `Step::speakers`,
//! `Step::alive`, `World::alive_at`), and only the lesson's bundle asks: the first screen
//! carries none of it.

use idem_core::{Note, Party, Role, Sent, Speaker, Step, World};

use crate::i18n::Catalog;
use crate::labels::ShortNames;
use crate::markup::{el, wrap, SafeHtml};
use crate::text::fault_mark;
use crate::text::narration::{note_line, with_expected_version};

/// A run of lines one speaker said (or that no request owns: a fault's mark, keys expiring).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The speaker's name ("The stalled handler (attempt 1)"), if a request owns the lines; for
    /// a backend's lines, whom it answers ("For the stalled handler (attempt 1)").
    pub who: Option<String>,
    /// Who acts: the speaker's own name, or for a backend's lines the handler it answers (a
    /// step where Redis answers a handler has one actor, not two).
    pub actor: Option<String>,
    /// Whether the lines are the speaker's own (the phone's, a handler's), so a first line
    /// that opens with the speaker's subject ("The phone sends …") takes the name in its
    /// place instead of repeating it (issue 42: "The phone (attempt 2): The phone sends").
    pub own: bool,
    /// The mark of the fault that is this run's event ("Fault: early retry."), said before
    /// the speaker's name: the press and the request it sends are one event (issue 42, stop
    /// 53: `lease-expiry` step 13 told the fault apart from the press it is).
    pub mark: Option<String>,
    /// The lines, in order.
    pub lines: Vec<String>,
}

impl Said {
    /// The lines as one sentence run, after the speaker's name when there is one; the name
    /// replaces the subject a first line of the speaker's own opens with.
    pub fn text(&self, catalog: &Catalog) -> String {
        let said = self.said(catalog);
        match &self.mark {
            Some(mark) => format!("{mark} {said}"),
            None => said,
        }
    }

    /// [`Said::text`] without the fault's mark.
    fn said(&self, catalog: &Catalog) -> String {
        let what = self.lines.join(" ");
        let Some(who) = &self.who else {
            return what;
        };
        if self.own {
            let subjects = catalog.text("speaker.subjects");
            for subject in subjects.split('|') {
                if let Some(rest) = what.strip_prefix(subject).filter(|r| r.starts_with(' ')) {
                    return format!("{who}{rest}");
                }
            }
        }
        catalog.fill("speaker.says", &[("who", who.clone()), ("what", what)])
    }
}

/// The speaker's name in `world`: where the phone runs two operations or more (`cas-race`'s
/// two debits, each on its attempt 1), the operation's number too, so two first attempts are
/// told apart ("The handler of operation #2 (attempt 1)"); else [`speaker_name`].
pub fn speaker_name_in(speaker: Speaker, world: &World, catalog: &Catalog) -> String {
    let key = match (speaker.party, speaker.role) {
        _ if world.client().ops().len() < 2 => None,
        (Party::Attempt(a), _) if a.sent == Sent::Copy => None,
        (Party::Attempt(a), role) => match role {
            Role::Phone => Some(("speaker.op_phone", a)),
            Role::Handler => Some(("speaker.op_handler", a)),
            Role::Backend { stalled: false } => Some(("speaker.op_for", a)),
            Role::Stalled | Role::Backend { .. } => None,
        },
        (Party::Recovery, _) => None,
    };
    match key {
        Some((key, a)) => catalog.fill(
            key,
            &[
                ("op", (a.op.0 + 1).to_string()),
                ("n", a.number.to_string()),
            ],
        ),
        None => speaker_name(speaker, catalog),
    }
}

/// The speaker's name, as the narration starts its lines (for a backend, whom it answers).
pub fn speaker_name(speaker: Speaker, catalog: &Catalog) -> String {
    let attempt = match (speaker.party, speaker.role) {
        (Party::Recovery, Role::Backend { .. }) => return catalog.text("speaker.for_recovery"),
        (Party::Recovery, _) => return catalog.text("speaker.recovery"),
        (Party::Attempt(a), _) => a,
    };
    let n = [("n", attempt.number.to_string())];
    let key = match (speaker.role, attempt.sent) {
        (Role::Stalled, _) => "speaker.stalled",
        (Role::Phone, Sent::Second) => "speaker.phone_second",
        (Role::Phone, Sent::Copy) => "speaker.phone_copy",
        (Role::Phone, _) => "speaker.phone",
        (Role::Handler, Sent::First) => "speaker.handler",
        (Role::Handler, Sent::Retry) => "speaker.retry",
        (Role::Handler, Sent::Second) => "speaker.second",
        (Role::Handler, Sent::Copy) => "speaker.copy",
        (Role::Backend { stalled: true }, _) => "speaker.for_stalled",
        (Role::Backend { .. }, Sent::First) => "speaker.for_handler",
        (Role::Backend { .. }, Sent::Retry) => "speaker.for_retry",
        (Role::Backend { .. }, Sent::Second) => "speaker.for_second",
        (Role::Backend { .. }, Sent::Copy) => "speaker.for_copy",
    };
    catalog.fill(key, &n)
}

/// The name of the side that acts for `speaker`: the speaker itself, or for a backend the
/// handler it answers.
fn actor_name(speaker: Speaker, world: &World, catalog: &Catalog) -> String {
    let role = match speaker.role {
        Role::Backend { stalled: true } => Role::Stalled,
        Role::Backend { stalled: false } => Role::Handler,
        role => role,
    };
    speaker_name_in(Speaker { role, ..speaker }, world, catalog)
}

/// The party's short name, for a badge's accessible name ("attempt 2", "second request,
/// attempt 2", "attempt 1, network copy"): it always says the number the badge shows; where
/// the phone runs two operations or more, the operation's number too ("operation #2,
/// attempt 1": two badges "1" of two operations are told apart).
pub fn party_name(party: Party, world: &World, catalog: &Catalog) -> String {
    let Party::Attempt(a) = party else {
        return catalog.text("speaker.badge_recovery");
    };
    if world.client().ops().len() > 1 && a.sent != Sent::Copy {
        return catalog.fill(
            "speaker.op_badge",
            &[
                ("op", (a.op.0 + 1).to_string()),
                ("n", a.number.to_string()),
            ],
        );
    }
    let key = match a.sent {
        Sent::Second => "speaker.badge_second",
        Sent::Copy => "speaker.badge_copy",
        Sent::First | Sent::Retry => "speaker.badge",
    };
    catalog.fill(key, &[("n", a.number.to_string())])
}

/// The badge drawn for a party: its attempt number in a circle (the recovery job's is R). The
/// number is the attempt's on the wire, so a request, the network's copy of it, its handler's
/// messages and its answer all show the same one.
pub fn party_mark(party: Party) -> String {
    match party {
        Party::Recovery => "R".to_owned(),
        Party::Attempt(a) => match a.number {
            n @ 1..=20 => char::from_u32(0x2460 + n - 1).map_or(n.to_string(), String::from),
            n => n.to_string(),
        },
    }
}

/// The narration of the visible step `world` ends in, each line with its speaker, when two or
/// more parties are alive in it, when the step packs several actors' events (a lease running
/// out as a retry goes, [`packs_several`]), or when the phone gets an answer out of turn (an
/// earlier attempt's, after it sent a retry, or a second answer it ignores: [`out_of_turn`]);
/// `None` otherwise (the plain narration stands, unchanged). A folded acknowledgement adds
/// nothing to the plain lines (see `narration_parts`).
pub fn spoken(world: &World, catalog: &Catalog) -> Option<Vec<Said>> {
    let step = crate::fold::visible_tail(world.steps()).first()?;
    let said = attributed(step, world, catalog);
    (step.alive(world).len() > 1 || packs_several(&said) || out_of_turn(step, world))
        .then_some(said)
}

/// Whether `step` sends or hands the phone an answer out of turn: one to an earlier attempt
/// than the retry the phone sent since (`Step::replies_late`, `Step::answered_late`), or one
/// the phone ignores because another answer settled the operation first. Such an answer is
/// always told with the attempt it answers (issue 42, stop 53: attempt 1's late 201 was "the
/// phone (attempt 3)"'s, or nobody's: "The API answers 201 Created").
fn out_of_turn(step: &Step, world: &World) -> bool {
    step.notes
        .iter()
        .any(|n| matches!(n, Note::ClientIgnoredLateAnswer { .. }))
        || step.answered_late(world).is_some()
        || step.replies_late(world).is_some()
}

/// Whether two parties or more are alive in the visible step `world` ends in (then packets
/// wear their attempt's ring, `crate::stage::rings`).
pub fn several_alive(world: &World) -> bool {
    crate::fold::visible_tail(world.steps())
        .first()
        .is_some_and(|step| step.alive(world).len() > 1)
}

/// [`spoken`] as one run of text, each speaker's name before their lines (the phone's bar,
/// where the words are one paragraph), each event numbered where the step packs several (as
/// the numbered list of [`spoken_html`]); `None` where the plain narration stands.
pub fn spoken_text(world: &World, catalog: &Catalog) -> Option<String> {
    let said = spoken(world, catalog)?;
    let numbered = packs_several(&said);
    let texts: Vec<String> = said
        .iter()
        .enumerate()
        .map(|(i, s)| match numbered {
            true => catalog.fill(
                "speaker.item",
                &[("n", (i + 1).to_string()), ("what", s.text(catalog))],
            ),
            false => s.text(catalog),
        })
        .collect();
    Some(texts.join(" "))
}

/// The step's lines, each run of them with its speaker's name.
fn attributed(step: &Step, world: &World, catalog: &Catalog) -> Vec<Said> {
    let names = ShortNames::of(world);
    let mut said: Vec<Said> = Vec::new();
    // The fault's mark leads the first event the fault caused: after a lease or a key running
    // out in the same step, which no fault made.
    let mut mark = fault_mark(step, catalog);
    let mut push =
        |who: Option<String>, actor: Option<String>, own: bool, expiry: bool, line: String| {
            let mark = if expiry { None } else { mark.take() };
            match said.last_mut() {
                Some(last) if last.who == who && mark.is_none() => last.lines.push(line),
                _ => said.push(Said {
                    who,
                    actor,
                    own,
                    mark,
                    lines: vec![line],
                }),
            }
        };
    let late = step.answered_late(world);
    // As `narrate_plain` tells them: a note that already says what the API answers is not
    // followed by "the API answers …".
    let answered = step
        .notes
        .iter()
        .any(|n| matches!(n, Note::ApiCasRejected | Note::ApiReconciled));
    // A 409 to an attempt whose handler ran and was fenced is told as that (issue 42:
    // lease-fencing's step 20 said the request "did not run" and that the phone would retry).
    let fenced = fenced_refusal(step, world);
    for (note, speaker) in step.notes.iter().zip(step.speakers(world)) {
        if answered && matches!(note, Note::ApiResponds { .. }) {
            continue;
        }
        // The later attempt's answer is on its way: the phone's backoff never fires.
        if matches!(note, Note::ClientBacksOff { .. })
            && fenced.is_some_and(|(_, latest)| latest.is_some())
        {
            continue;
        }
        // Keys running out belong to no request: the key store speaks.
        let (who, actor, own) = match (speaker, note) {
            (Some(s), _) => (
                Some(speaker_name_in(s, world, catalog)),
                Some(actor_name(s, world, catalog)),
                !matches!(s.role, Role::Backend { .. }),
            ),
            (None, Note::ClaimsExpired { .. } | Note::KeysExpired { .. }) => {
                let keys = catalog.text("speaker.keys");
                (Some(keys.clone()), Some(keys), false)
            }
            (None, _) => (None, None, false),
        };
        // A step that stands alone with what PostgreSQL ran (an answer between two handlers'
        // steps) says what the statements did, not only how many there were (issue 42: the
        // statement count was a line with no new idea).
        let lines = match note {
            Note::LedgerRan { statements, rows } => {
                let statements: Vec<String> = statements
                    .iter()
                    .map(|s| with_expected_version(s.clone(), step, world))
                    .collect();
                vec![sql_line(&statements, rows, catalog)]
            }
            Note::ClientToldToWait { .. } if fenced.is_some() => {
                let (n, latest) = fenced.unwrap_or_default();
                let n = [("n", n.to_string())];
                let mut lines: Vec<String> = catalog
                    .panel_fill("speaker.fenced_refusal", &n)
                    .into_iter()
                    .collect();
                if let Some(latest) = latest {
                    let latest = [("latest", latest.to_string())];
                    lines.extend(catalog.panel_fill("speaker.fenced_no_retry", &latest));
                }
                lines
            }
            // The note told alone, as the plain narration tells it (no fault mark again), in
            // its own step: what Redis answers depends on the command that step delivered.
            _ => vec![note_line(note, step, world, &names, catalog)],
        };
        let expiry = matches!(note, Note::ClaimsExpired { .. } | Note::KeysExpired { .. });
        // An answer to an earlier attempt than the phone's latest retry says so first ("the
        // phone gets attempt 1's answer after it already sent attempt 3").
        let answer = matches!(
            note,
            Note::ClientGotAnswer { .. }
                | Note::ClientIgnoredLateAnswer { .. }
                | Note::ClientToldToWait { .. }
                | Note::ClientGotForeignAnswer { .. }
        );
        if let (true, Some((answered, latest))) = (answer, late) {
            let lead = catalog.fill(
                "speaker.late_answer",
                &[
                    ("n", answered.number.to_string()),
                    ("latest", latest.number.to_string()),
                ],
            );
            push(who.clone(), actor.clone(), own, expiry, lead);
        }
        for line in lines {
            push(who.clone(), actor.clone(), own, expiry, line);
        }
    }
    // A mark no event followed (an armed fault no request owns) is the step's only event.
    if let Some(mark) = mark {
        said.insert(
            0,
            Said {
                who: None,
                actor: None,
                own: false,
                mark: None,
                lines: vec![mark],
            },
        );
    }
    said
}

/// When `step` hands the phone a 409 to an attempt whose handler ran and was fenced (an
/// earlier step holds that attempt's `Note::ApiFenced`): the attempt's number, and the number
/// of a later attempt of the same operation whose answer is already on the wire (the phone
/// takes that one, and its backoff never fires).
fn fenced_refusal(step: &Step, world: &World) -> Option<(u32, Option<u32>)> {
    use idem_core::message::Payload;
    let told = step
        .notes
        .iter()
        .zip(step.speakers(world))
        .find_map(|(note, speaker)| match (note, speaker?.party) {
            (Note::ClientToldToWait { .. }, Party::Attempt(a)) => Some(a),
            _ => None,
        })?;
    let same = |party: Party, later: bool| match party {
        Party::Attempt(a) => {
            a.op == told.op
                && if later {
                    a.number > told.number
                } else {
                    a.number == told.number
                }
        }
        Party::Recovery => false,
    };
    let was_fenced = world
        .steps()
        .iter()
        .take_while(|s| s.index < step.index)
        .any(|s| {
            s.notes
                .iter()
                .zip(s.speakers(world))
                .any(|(note, speaker)| {
                    matches!(note, Note::ApiFenced)
                        && speaker.is_some_and(|sp| same(sp.party, false))
                })
        });
    if !was_fenced {
        return None;
    }
    let on_its_way = world.network().in_flight().find_map(|m| {
        let party = world.speaker_of(m.id)?.party;
        match (&m.payload, party) {
            (Payload::Response(_), Party::Attempt(a)) if same(party, true) => Some(a.number),
            _ => None,
        }
    });
    Some((told.number, on_its_way))
}

/// What PostgreSQL ran, each statement with the rows it added, changed or returned.
fn sql_line(statements: &[String], rows: &[u64], catalog: &Catalog) -> String {
    let list: Vec<String> = statements
        .iter()
        .zip(rows)
        .map(|(statement, n)| {
            let key = if statement.starts_with("SELECT") {
                "speaker.sql_returned"
            } else if statement.starts_with("INSERT") {
                "speaker.sql_added"
            } else {
                "speaker.sql_changed"
            };
            let statement = crate::text::narration::localized_statement(statement, catalog);
            catalog.fill(key, &[("statement", statement), ("n", n.to_string())])
        })
        .collect();
    catalog.fill("speaker.sql", &[("list", list.join("; "))])
}

/// Whether the step names two actors or more (requests' sides, the key store): it is told as
/// a numbered list, one event an item. A backend answering a handler acts for that handler.
pub fn packs_several(said: &[Said]) -> bool {
    let mut names: Vec<&String> = said.iter().filter_map(|s| s.actor.as_ref()).collect();
    names.dedup();
    names.len() > 1
}

/// [`spoken`] as markup: one paragraph per speaker's lines, or a numbered list when the step
/// packs several actors; each line through `line` (the page links its glossary terms). Empty
/// when no speaker is named.
pub fn spoken_html(world: &World, catalog: &Catalog, line: impl Fn(&str) -> SafeHtml) -> SafeHtml {
    let Some(said) = spoken(world, catalog) else {
        return SafeHtml::default();
    };
    if packs_several(&said) {
        let items: SafeHtml = said
            .iter()
            .map(|s| wrap("li", "", &line(&s.text(catalog))))
            .collect();
        wrap("ol", "class=\"spoken-list\"", &items)
    } else {
        said.iter().map(|s| line(&s.text(catalog))).collect()
    }
}

/// A plain paragraph, for [`spoken_html`] where no term is linked.
pub fn plain_line(text: &str) -> SafeHtml {
    el("p", "", text)
}

/// The badge of the sequence diagram's arrow for message `row`: its mark and its name, when
/// two or more parties were alive as it was sent.
pub fn arrow_badge(world: &World, row: usize, catalog: &Catalog) -> Option<(String, String)> {
    let m = world.network().messages().get(row)?;
    let party = world.speaker_of(m.id)?.party;
    (world.alive_at(m.sent_at).len() > 1)
        .then(|| (party_mark(party), party_name(party, world, catalog)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::playback::Run;
    use crate::test_support::worlds;
    use idem_core::message::Payload;
    use idem_core::{Action, Scenario};

    /// Every line with a speaker said in the scenario `id`, in order.
    fn lines(id: &str, catalog: &Catalog) -> Vec<String> {
        worlds(id)
            .iter()
            .filter_map(|w| spoken(w, catalog))
            .flatten()
            .map(|s| s.text(catalog))
            .collect()
    }

    #[test]
    fn the_seed_stories_name_no_speaker_their_attempts_never_overlap() {
        for id in Scenario::seed_ids() {
            for world in worlds(id) {
                assert_eq!(spoken(&world, Lang::En.catalog()), None, "{id}");
            }
        }
    }

    #[test]
    fn a_lease_running_out_as_the_retry_goes_is_two_events_with_one_attempt_alive() {
        for (lang, keys, phone) in [
            (Lang::En, "The key store: ", "The phone (attempt 3) "),
            (Lang::Ru, "Хранилище ключей: ", "Телефон (попытка 3) "),
        ] {
            let catalog = lang.catalog();
            let said = worlds("crash-window")
                .iter()
                .find_map(|w| spoken(w, catalog))
                .expect("the crash window's packed step");
            let texts: Vec<String> = said.iter().map(|s| s.text(catalog)).collect();
            assert_eq!(texts.len(), 2, "{texts:#?}");
            assert!(texts[0].starts_with(keys), "{texts:#?}");
            assert!(texts[1].starts_with(phone), "{texts:#?}");
        }
    }

    #[test]
    fn the_lease_run_names_the_stalled_handler_and_the_retry_s() {
        for (lang, stalled, retry) in [
            (
                Lang::En,
                "The stalled handler (attempt 1) ",
                "The retry's handler (attempt ",
            ),
            (
                Lang::Ru,
                "Зависший обработчик (попытка 1) ",
                "Обработчик повтора (попытка ",
            ),
        ] {
            let lines = lines("lease-expiry", lang.catalog());
            assert!(lines.iter().any(|l| l.starts_with(stalled)), "{lines:#?}");
            assert!(lines.iter().any(|l| l.starts_with(retry)), "{lines:#?}");
        }
    }

    #[test]
    fn a_double_tap_is_a_second_request_never_a_retry() {
        let lines = lines("concurrent", Lang::En.catalog());
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("The second request's handler (attempt 2): ")),
            "{lines:#?}"
        );
        assert!(lines.iter().all(|l| !l.contains("retry's")), "{lines:#?}");
    }

    #[test]
    fn a_step_with_two_actors_is_a_numbered_list() {
        let catalog = Lang::En.catalog();
        let packed = worlds("lease-expiry")
            .iter()
            .find_map(|w| spoken(w, catalog).filter(|s| packs_several(s)))
            .expect("a lease step with two actors");
        assert!(
            packed.iter().filter(|s| s.who.is_some()).count() >= 2,
            "{packed:#?}"
        );
        let world = worlds("lease-expiry")
            .into_iter()
            .find(|w| spoken(w, catalog).is_some_and(|s| packs_several(&s)))
            .expect("found above");
        let html = spoken_html(&world, catalog, plain_line).to_string();
        assert!(html.starts_with("<ol class=\"spoken-list\"><li>"), "{html}");
    }

    #[test]
    fn arrows_sent_while_two_attempts_live_carry_a_named_badge() {
        let world = worlds("lease-expiry").pop().expect("an end");
        let rows = world.network().messages().len();
        let badges: Vec<(String, String)> = (0..rows)
            .filter_map(|row| arrow_badge(&world, row, Lang::En.catalog()))
            .collect();
        assert!(
            badges
                .iter()
                .any(|(mark, name)| mark == "①" && name == "attempt 1"),
            "{badges:?}"
        );
        assert!(badges.iter().any(|(mark, _)| mark != "①"), "{badges:?}");
        assert_eq!(
            arrow_badge(&world, 0, Lang::En.catalog()),
            None,
            "the first request is alone"
        );
        let naive = worlds("naive").pop().expect("an end");
        assert!((0..naive.network().messages().len()).all(|row| arrow_badge(
            &naive,
            row,
            Lang::En.catalog()
        )
        .is_none()));
    }

    /// Scenario `id` with the user pressing Retry as soon as the first request is out, then
    /// the network copying attempt 2's request while it flies; run to the end.
    fn early_retry_copied(id: &str) -> Run {
        let mut run = Run::new(Scenario::by_id(id).expect("scenario"));
        while run.world().network().in_flight().next().is_none() {
            assert!(run.step_forward(), "{id}: no request goes out");
        }
        run.apply(Action::RetryNow).expect("an early retry");
        let second = run
            .world()
            .network()
            .messages()
            .iter()
            .find(|m| matches!(&m.payload, Payload::Request(r) if r.attempt == 2))
            .map(|m| m.id)
            .expect("attempt 2 is on the wire");
        run.apply(Action::Duplicate(second))
            .expect("the network copies attempt 2");
        run.run_to_end();
        run
    }

    #[test]
    fn attempt_two_its_network_copy_their_handlers_and_answers_all_say_two() {
        let catalog = Lang::En.catalog();
        for id in ["lease-expiry", "concurrent"] {
            let run = early_retry_copied(id);
            let world = run.end();
            let messages = world.network().messages();
            let mut copies = 0;
            for (row, m) in messages.iter().enumerate() {
                let Some(Party::Attempt(a)) = world.speaker_of(m.id).map(|s| s.party) else {
                    continue;
                };
                copies += usize::from(a.sent == Sent::Copy);
                let badge = arrow_badge(world, row, catalog);
                if a.number == 2 {
                    let (mark, name) = badge.expect("two attempts alive: a badge");
                    assert_eq!(mark, "②", "{id} #{}: {name}", m.id.0);
                    assert!(name.starts_with("attempt 2"), "{id} #{}: {name}", m.id.0);
                } else if let Some((mark, name)) = badge {
                    assert_ne!(mark, "②", "{id} #{}: {name}", m.id.0);
                    assert!(!name.contains("attempt 2"), "{id} #{}: {name}", m.id.0);
                }
            }
            // The copy reached a handler, which spoke to the backends and answered.
            assert!(copies >= 3, "{id}: {copies} messages of the copy");
            // Every line its handler or the phone says about it carries the same number.
            let said: Vec<String> = run
                .snapshots()
                .filter_map(|w| spoken(&w, catalog))
                .flatten()
                .filter_map(|s| s.who)
                .collect();
            let copy_lines: Vec<&String> = said.iter().filter(|w| w.contains("copy")).collect();
            assert!(!copy_lines.is_empty(), "{id}: {said:#?}");
            assert!(
                copy_lines.iter().all(|w| w.contains("attempt 2")),
                "{id}: {copy_lines:#?}"
            );
        }
    }

    #[test]
    fn no_name_names_two_requests() {
        let catalog = Lang::En.catalog();
        for run in [
            early_retry_copied("lease-expiry"),
            early_retry_copied("concurrent"),
        ] {
            let world = run.end();
            let mut named: Vec<(String, Party)> = Vec::new();
            for step in world.steps() {
                for speaker in step.speakers(world).into_iter().flatten() {
                    let name = speaker_name(speaker, catalog);
                    match named.iter().find(|(n, _)| *n == name) {
                        Some((_, party)) => assert_eq!(*party, speaker.party, "{name}"),
                        None => named.push((name, speaker.party)),
                    }
                }
            }
            assert!(named.len() >= 4, "{named:#?}");
        }
    }

    #[test]
    fn the_steps_that_pack_several_events_are_numbered_lists_naming_each_actor() {
        // Issue 42's review: crash-window step 19, lease-expiry 14, lease-fencing 12 (`step=`).
        let catalog = Lang::En.catalog();
        for (id, step) in [
            ("crash-window", 19),
            ("lease-expiry", 14),
            ("lease-fencing", 12),
        ] {
            let world = worlds(id).swap_remove(step);
            let said = spoken(&world, catalog).expect("named");
            assert!(packs_several(&said), "{id} {step}: {said:#?}");
            let names: Vec<&String> = said.iter().filter_map(|s| s.who.as_ref()).collect();
            assert!(
                names.contains(&&"The key store".to_owned()),
                "{id}: {names:?}"
            );
            assert!(
                names.contains(&&"The phone (attempt 3)".to_owned()),
                "{id}: {names:?}"
            );
            let html = spoken_html(&world, catalog, plain_line).to_string();
            assert!(
                html.starts_with("<ol class=\"spoken-list\">"),
                "{id}: {html}"
            );
            assert_eq!(html.matches("<li>").count(), said.len(), "{id}: {html}");
        }
    }
}
