//! The cursor and playback: which step's state is shown, and stepping through them on a timer.

use super::action::CursorAction;
use super::Model;
use super::SPEEDS;

/// The cursor `n` steps on (`None`: before the first step), stopping at either end.
fn step_by(cursor: Option<usize>, n: i32, last: Option<usize>) -> Option<usize> {
    let last = last? as i64;
    let at = cursor.map_or(-1, |c| c as i64) + i64::from(n);
    (at >= 0).then(|| at.min(last) as usize)
}

impl Model {
    /// Move the cursor, select, play.
    pub(super) fn apply_cursor(&mut self, look: CursorAction) {
        match look {
            CursorAction::Set(c) => self.set_cursor(c),
            CursorAction::StepBy(n) => self.step(n),
            CursorAction::Home => self.shown.cursor = None,
            CursorAction::End => self.shown.cursor = self.shown.last_step(),
            CursorAction::Select(i) => self.select(i),
            CursorAction::Play => self.play(),
            CursorAction::TogglePlay => self.toggle_play(),
            CursorAction::Pause => self.playing = false,
            CursorAction::Tick => self.tick(),
            CursorAction::SetSpeed(s) => self.speed = s.min(SPEEDS.len() - 1),
        }
    }

    /// Select an event (its editor opens), or none.
    pub(super) fn select(&mut self, i: Option<usize>) {
        self.selected = i.filter(|i| *i < self.shown.scenario.events.len());
    }

    /// Show the state after a step, clamped to the last one.
    pub(super) fn set_cursor(&mut self, c: Option<usize>) {
        self.shown.cursor = c.and_then(|c| self.shown.last_step().map(|l| c.min(l)));
    }

    pub(super) fn step(&mut self, n: i32) {
        self.shown.cursor = step_by(self.shown.cursor, n, self.shown.last_step());
    }

    /// Start playback (from the start when at the end, as ▶ does); no-op when playing already.
    pub(super) fn play(&mut self) {
        if !self.playing && self.shown.cursor == self.shown.last_step() {
            self.shown.cursor = None;
        }
        self.playing = self.shown.last_step().is_some();
    }

    /// Play (from the start when at the end) or pause.
    pub(super) fn toggle_play(&mut self) {
        if !self.playing && self.shown.cursor == self.shown.last_step() {
            self.shown.cursor = None;
        }
        self.playing = !self.playing && self.shown.last_step().is_some();
    }

    /// One tick of playback: the next step, or a stop at the end.
    pub(super) fn tick(&mut self) {
        if self.shown.cursor == self.shown.last_step() {
            self.playing = false;
        } else {
            self.step(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Action;

    #[test]
    fn cursor_moves_step_by_step_and_playback_stops_at_the_end() {
        let m = Model::landing().after(Action::Cursor(CursorAction::Home));
        assert_eq!(m.shown.cursor, None);
        let m = m.after(Action::Cursor(CursorAction::StepBy(1))).after(Action::Cursor(CursorAction::StepBy(1)));
        assert_eq!(m.shown.cursor, Some(1));
        let m = m.after(Action::Cursor(CursorAction::StepBy(-5)));
        assert_eq!(m.shown.cursor, None);
        let m = m.after(Action::Cursor(CursorAction::End)).after(Action::Cursor(CursorAction::TogglePlay));
        assert!(m.playing);
        assert_eq!(m.shown.cursor, None, "play from the end restarts");
        let mut m = m;
        for _ in 0..20 {
            m = m.after(Action::Cursor(CursorAction::Tick));
        }
        assert!(!m.playing);
        assert_eq!(m.shown.cursor, Some(9));
    }

    #[test]
    fn play_at_the_last_step_replays_from_the_start_as_the_play_button_does() {
        let m = Model::landing().after(Action::Cursor(CursorAction::End)).after(Action::Cursor(CursorAction::Play));
        assert!(m.playing);
        assert_eq!(m.shown.cursor, None);
        let m = Model::landing()
            .after(Action::Cursor(CursorAction::Set(Some(3))))
            .after(Action::Cursor(CursorAction::Play));
        assert_eq!((m.playing, m.shown.cursor), (true, Some(3)), "from the middle it goes on");
        assert_eq!(
            m.after(Action::Cursor(CursorAction::Tick)).after(Action::Cursor(CursorAction::Play)).shown.cursor,
            Some(4),
            "playing already: nothing changes"
        );
    }
}
