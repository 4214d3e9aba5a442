//! What the learner asks the checker: the question, the variant and the bounds. The choices live in the
//! panel's state (`Choice`), changed by typed edits; on Run they become a search, every bound checked
//! against the core's (`checker::bounds`), so a bad number is a message, never a 0.

use epochlab_core::checker::bounds::{Bound, BROKERS, DEPTH, EPOCHS, RECORDS};
use epochlab_core::checker::{default_goal, Alphabet, CheckConfig, Stamp};
use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::Config;
use epochlab_core::Variant;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The questions a search can answer, the learner's first: what they came to see is a lost record or two
/// logs that disagree, not the ISR inconsistency (I4) that a search of every invariant finds first. Each
/// with its option's value and the invariants it looks for (none listed: the ticked boxes).
pub const QUESTIONS: [(&str, &str, &[InvariantId]); 3] = [
    ("lose", "a committed record lost (I1, I2)", &[InvariantId::I1, InvariantId::I2]),
    ("diverge", "two replicas diverging (I3)", &[InvariantId::I3]),
    ("any", "any invariant ticked below", &[]),
];

/// The bounds typed in number fields, in the order shown.
const TYPED: [(&str, Bound); 3] = [("Records", RECORDS), ("Leader epochs", EPOCHS), ("Depth (events)", DEPTH)];

/// The form's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// An index into [`QUESTIONS`].
    pub question: usize,
    pub variant: Variant,
    pub brokers: u64,
    /// The number fields' texts as typed (read on Run), in [`TYPED`]'s order.
    pub typed: [String; 3],
    pub ticked: Vec<InvariantId>,
}

impl Default for Choice {
    fn default() -> Self {
        Choice {
            question: 0,
            variant: Variant::HwTruncation,
            brokers: BROKERS.default,
            typed: TYPED.map(|(_, b)| b.default.to_string()),
            ticked: default_goal(),
        }
    }
}

/// One change to the form.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    Question(usize),
    Variant(Variant),
    Brokers(u64),
    Typed(usize, String),
    Tick(InvariantId, bool),
}

impl Choice {
    pub fn with(mut self, edit: Edit) -> Choice {
        match edit {
            Edit::Question(q) => self.question = q.min(QUESTIONS.len() - 1),
            Edit::Variant(v) => self.variant = v,
            Edit::Brokers(n) => self.brokers = n,
            Edit::Typed(at, text) => {
                if let Some(field) = self.typed.get_mut(at) {
                    *field = text;
                }
            }
            Edit::Tick(id, on) => {
                self.ticked.retain(|i| *i != id);
                if on {
                    self.ticked.push(id);
                    self.ticked.sort();
                }
            }
        }
        self
    }

    /// The form as a stamp's search fills it: what a re-check runs is what the form shows.
    pub fn of_stamp(stamp: &Stamp) -> Choice {
        let [brokers, records, epochs, depth] = stamp.bounds;
        let asked = |q: &(&str, &str, &[InvariantId])| !q.2.is_empty() && q.2 == stamp.goal.as_slice();
        let question = QUESTIONS.iter().position(asked).unwrap_or(QUESTIONS.len() - 1);
        Choice {
            question,
            variant: stamp.variant,
            brokers: u64::from(brokers),
            typed: [records, epochs, depth].map(|n| n.to_string()),
            ticked: stamp.goal.clone(),
        }
    }

    /// The invariants the question looks for.
    pub fn goal(&self) -> Vec<InvariantId> {
        match QUESTIONS.get(self.question) {
            Some((_, _, goal)) if !goal.is_empty() => goal.to_vec(),
            _ => default_goal().into_iter().filter(|i| self.ticked.contains(i)).collect(),
        }
    }

    /// The search asked for, under the scenario's settings, or what is wrong with the form.
    pub fn search(&self, config: &Config) -> Result<CheckConfig, String> {
        let [records, epochs, depth] = self.typed_bounds()?;
        let goal = self.goal();
        if goal.is_empty() {
            return Err("choose at least one invariant".into());
        }
        Ok(CheckConfig {
            variant: self.variant,
            brokers: BROKERS.check(self.brokers)? as u8,
            records: records as u8,
            epochs: epochs as i32,
            depth: depth as u32,
            goal,
            alphabet: Alphabet::Default,
            config: config.clone(),
            ..CheckConfig::default()
        })
    }

    fn typed_bounds(&self) -> Result<[u64; 3], String> {
        let mut values = [0; 3];
        for (value, (text, (_, bound))) in values.iter_mut().zip(self.typed.iter().zip(TYPED)) {
            let n = text.trim().parse().map_err(|_| format!("{} is not a whole number", bound.name))?;
            *value = bound.check(n)?;
        }
        Ok(values)
    }
}

#[derive(Properties, PartialEq)]
pub struct FormProps {
    pub choice: Choice,
    pub on_edit: Callback<Edit>,
}

/// The form.
#[function_component(CheckForm)]
pub fn check_form(props: &FormProps) -> Html {
    let c = &props.choice;
    let numbers = TYPED.iter().enumerate().map(|(at, (label, b))| {
        let oninput = props.on_edit.reform(move |e: InputEvent| Edit::Typed(at, e.target_unchecked_into::<HtmlInputElement>().value()));
        html! {
            <label class="config__field">{ format!("{label} ") }
                <input type="number" name={b.name} min={b.min.to_string()} max={b.max.to_string()} value={c.typed[at].clone()} {oninput} data-testid={format!("checker-{}", b.name)} />
            </label>
        }
    });
    html! {
        <fieldset class="checker__form">
            { question_select(c, &props.on_edit) }
            { variant_select(c, &props.on_edit) }
            { brokers_select(c, &props.on_edit) }
            { for numbers }
            { invariant_boxes(c, &props.on_edit) }
        </fieldset>
    }
}

/// A select's value on change.
fn selected(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

fn question_select(c: &Choice, on_edit: &Callback<Edit>) -> Html {
    let onchange = on_edit.reform(|e: Event| {
        let value = selected(&e);
        Edit::Question(QUESTIONS.iter().position(|(key, _, _)| *key == value).unwrap_or(0))
    });
    let options = QUESTIONS.iter().enumerate().map(|(i, (key, words, _))| {
        html! { <option value={*key} selected={i == c.question}>{ *words }</option> }
    });
    html! {
        <label class="config__field">{ "Look for " }<select name="question" {onchange} data-testid="checker-question">{ for options }</select></label>
    }
}

fn variant_select(c: &Choice, on_edit: &Callback<Edit>) -> Html {
    let onchange =
        on_edit.reform(|e: Event| Edit::Variant(Variant::from_id(&selected(&e)).unwrap_or(Variant::HwTruncation)));
    let options =
        Variant::ALL.iter().map(|v| html! { <option value={v.id()} selected={*v == c.variant}>{ v.id() }</option> });
    html! {
        <label class="config__field">{ "Variant " }<select name="variant" {onchange} data-testid="checker-variant">{ for options }</select></label>
    }
}

fn brokers_select(c: &Choice, on_edit: &Callback<Edit>) -> Html {
    let onchange = on_edit.reform(|e: Event| Edit::Brokers(selected(&e).parse().unwrap_or(BROKERS.default)));
    let options = (BROKERS.min..=BROKERS.max)
        .map(|n| html! { <option value={n.to_string()} selected={n == c.brokers}>{ n }</option> });
    html! {
        <label class="config__field">{ "Brokers " }<select name="brokers" {onchange} data-testid="checker-brokers">{ for options }</select></label>
    }
}

fn invariant_boxes(c: &Choice, on_edit: &Callback<Edit>) -> Html {
    let boxes = default_goal().into_iter().map(|i| {
        let onchange = on_edit.reform(move |e: Event| Edit::Tick(i, e.target_unchecked_into::<HtmlInputElement>().checked()));
        html! {
            <label class="config__check" title={i.name()}>
                <input type="checkbox" value={i.id()} checked={c.ticked.contains(&i)} {onchange} data-testid={format!("checker-invariant-{}", i.id())} />{ i.id() }
            </label>
        }
    });
    html! {
        <span class="checker__invariants">{ "Invariants (for \u{201c}any invariant ticked below\u{201d}): " }{ for boxes }</span>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learners_question_decides_the_goal() {
        let none_ticked = Choice { ticked: Vec::new(), ..Choice::default() };
        assert_eq!(none_ticked.goal(), [InvariantId::I1, InvariantId::I2]);
        assert_eq!(none_ticked.clone().with(Edit::Question(1)).goal(), [InvariantId::I3]);
        let any = Choice::default().with(Edit::Question(2)).with(Edit::Tick(InvariantId::I4, false));
        let ids: Vec<&str> = any.goal().into_iter().map(InvariantId::id).collect();
        assert_eq!(ids, ["I1", "I2", "I3", "I5", "I7", "L1"]);
        assert_eq!(any.with(Edit::Tick(InvariantId::I4, true)).goal(), default_goal());
    }

    #[test]
    fn a_bad_number_is_a_reason_not_a_zero() {
        let config = Config::default();
        let search = Choice::default().search(&config).expect("the defaults are a search");
        assert_eq!((search.variant, search.brokers, search.depth), (Variant::HwTruncation, 2, DEPTH.default as u32));
        let typed = |at, text: &str| Choice::default().with(Edit::Typed(at, text.into())).search(&config).err();
        assert_eq!(typed(2, "").as_deref(), Some("depth is not a whole number"));
        assert_eq!(typed(2, "99").as_deref(), Some("depth 99 is out of range (1 to 30)"));
        assert_eq!(typed(0, "0").as_deref(), Some("records 0 is out of range (1 to 6)"));
        assert_eq!(typed(1, " 4 "), None);
        let nothing = Choice::default().with(Edit::Question(2));
        let nothing = default_goal().into_iter().fold(nothing, |c, i| c.with(Edit::Tick(i, false)));
        assert_eq!(nothing.search(&config).err().as_deref(), Some("choose at least one invariant"));
    }
}
