//! Readable refusals: why the core refused an action (`ActionError`) and what is wrong with a
//! deep link (`LinkError`).

use idem_core::{ActionError, LinkError};

use crate::i18n::Catalog;
use crate::labels::msg_no;

/// Why an action was refused, in words.
pub fn action_error(error: &ActionError, catalog: &Catalog) -> String {
    let (key, msg) = match error {
        ActionError::NoSuchMessage(id) => ("error.no_such_message", *id),
        ActionError::NotInFlight(id) => ("error.not_in_flight", *id),
        ActionError::NotOnMobileLink(id) => ("error.not_on_mobile_link", *id),
        ActionError::NothingToRetry => ("error.nothing_to_retry", idem_core::MsgId(0)),
        ActionError::NoOperationYet => ("error.no_operation_yet", idem_core::MsgId(0)),
        ActionError::ClientOffline => ("error.client_offline", idem_core::MsgId(0)),
        ActionError::NothingOnItsWay => ("error.nothing_on_its_way", idem_core::MsgId(0)),
        ActionError::NoSuchPhase(phase) => {
            let phase = catalog.text(&format!("phase.{}", phase.name()));
            return catalog.fill("error.no_such_phase", &[("phase", phase)]);
        }
    };
    catalog.fill(key, &[("msg", msg_no(msg, catalog))])
}

/// What is wrong with a deep link, in words.
pub fn link_error(error: &LinkError, catalog: &Catalog) -> String {
    let (key, value) = match error {
        LinkError::TooLong(n) => ("link.too_long", n.to_string()),
        LinkError::UnknownScenario(v) => ("link.unknown_scenario", v.clone()),
        LinkError::UnknownProtection(v) => ("link.unknown_protection", v.clone()),
        LinkError::BadFault(v) => ("link.bad_fault", v.clone()),
        LinkError::TooManyFaults(n) => ("link.too_many_faults", n.to_string()),
        LinkError::BadStep(v) => ("link.bad_step", v.clone()),
        LinkError::Repeated(v) => ("link.repeated", v.clone()),
        LinkError::BadCharacters(v) => ("link.bad_characters", v.clone()),
        LinkError::BadCompare(v) => ("link.bad_compare", v.clone()),
        LinkError::UnknownChallenge(v) => ("link.unknown_challenge", v.clone()),
        LinkError::BadChaos(v) => ("link.bad_chaos", v.clone()),
        LinkError::ChaosWith(v) if matches!(v.as_str(), "compare" | "challenge") => {
            ("link.chaos_with", v.clone())
        }
        LinkError::ChaosWith(v) => ("link.chaos_needs", v.clone()),
        LinkError::FaultRefused { index, error } => {
            let reason = action_error(error, catalog);
            return catalog.fill(
                "link.fault_refused",
                &[("n", (index + 1).to_string()), ("reason", reason)],
            );
        }
    };
    catalog.fill(key, &[("value", value)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::test_support::played;
    use idem_core::{Action, MsgId};

    #[test]
    fn refusals_are_explained() {
        let catalog = Lang::En.catalog();
        let mut world = played("key", 3);
        let internal = world
            .network()
            .in_flight()
            .find(|m| !m.is_faultable())
            .map(|m| m.id)
            .expect("an internal packet in flight");
        let error = world.apply(Action::Drop(internal)).expect_err("refused");
        let text = action_error(&error, catalog);
        assert!(text.contains(&msg_no(internal, catalog)), "{text}");
        assert!(!action_error(&ActionError::NothingToRetry, catalog).is_empty());
        let refused = LinkError::FaultRefused {
            index: 0,
            error: ActionError::NoSuchMessage(MsgId(42)),
        };
        let text = link_error(&refused, catalog);
        assert!(
            text.starts_with("fault 1 could not be applied") && text.contains("#43"),
            "{text}"
        );
        for error in [
            LinkError::TooLong(5_000),
            LinkError::UnknownScenario("nope".into()),
            LinkError::UnknownProtection("x".into()),
            LinkError::BadFault("x".into()),
            LinkError::TooManyFaults(99),
            LinkError::BadStep("x".into()),
            LinkError::Repeated("step".into()),
            LinkError::BadCharacters("scenario".into()),
            LinkError::BadCompare("cas".into()),
            LinkError::UnknownChallenge("x".into()),
        ] {
            assert!(!link_error(&error, catalog).contains('{'));
        }
        // A chaos seed beside a comparison or a challenge cannot be used; without the faults
        // it drew, the link lacks what it needs: two different reasons.
        for with in ["compare", "challenge"] {
            let text = link_error(&LinkError::ChaosWith(with.into()), catalog);
            assert!(text.contains("cannot be used with"), "{text}");
        }
        let text = link_error(&LinkError::ChaosWith("faults".into()), catalog);
        assert!(text.contains("is given only with base=1"), "{text}");
    }
}
