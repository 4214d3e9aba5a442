//! A horizontal scroller seen as a window over equal-width columns (the timeline's steps, a log grid's
//! offsets). Long content renders only the columns near the visible part, and the view follows what the
//! current step is about.
//!
//! The window is tracked from scroll events instead of being read on every render: reading a scroll position
//! or a width right after the DOM changed forces the browser to lay the page out synchronously, which costs
//! more than the render itself. Layout is read only when the scroller is first seen and when it must move.

use std::ops::Range;

use gloo::events::EventListener;
use yew::prelude::*;

/// The visible part of a scroller whose content is `columns` columns of one width, in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// Scrolled distance from the left edge.
    pub left: i32,
    /// Visible width.
    pub width: i32,
    /// One column's width (at least 1).
    pub column: i32,
}

impl Viewport {
    /// Reads a scroller whose first child is exactly `columns` columns wide (the timeline's grid, a log
    /// grid's offset row). A read of layout: call it when the layout is fresh (in a scroll handler), or when a
    /// forced layout cannot be avoided.
    pub fn measure(el: &web_sys::Element, columns: usize) -> Viewport {
        let content = el.first_element_child().map_or_else(|| el.scroll_width(), |c| c.scroll_width());
        let column = content / i32::try_from(columns.max(1)).unwrap_or(i32::MAX);
        Viewport { left: el.scroll_left(), width: el.client_width(), column: column.max(1) }
    }

    /// The columns at least partly visible (not clamped to the content).
    pub fn seen(&self) -> Range<usize> {
        let first = (self.left.max(0) / self.column) as usize;
        let last = ((self.left.max(0) + self.width.max(0) - 1).max(0) / self.column) as usize;
        first..last + 1
    }

    /// How many columns fit in the visible width.
    pub fn span(&self) -> usize {
        (self.width.max(0) / self.column) as usize + 1
    }

    /// Where to scroll so that `columns` are in view: `None` when they already are; otherwise centred (or
    /// their start at the left edge when they are wider than the view).
    pub fn scroll_to_show(&self, columns: &Range<usize>) -> Option<i32> {
        let (start, end) = (columns.start as i32 * self.column, columns.end as i32 * self.column);
        if start >= self.left && end <= self.left + self.width {
            return None;
        }
        let room = (self.width - (end - start)).max(0);
        Some((start - room / 2).max(0))
    }
}

/// The columns to render out of `total`: all of them up to `render_all`; otherwise those visible (the first
/// `assumed_span` before the scroller is measured) and those around `focus`, which the view is about to scroll
/// to, each widened by `margin` on both sides. Sorted, disjoint and clamped to `0..total`.
pub fn rendered(
    total: usize,
    render_all: usize,
    viewport: Option<Viewport>,
    assumed_span: usize,
    focus: Option<Range<usize>>,
    margin: usize,
) -> Vec<Range<usize>> {
    if total <= render_all {
        return std::iter::once(0..total).collect();
    }
    let seen = viewport.map_or(0..assumed_span, |v| v.seen());
    let span = viewport.map_or(assumed_span, |v| v.span());
    let mut ranges = vec![seen];
    if let Some(f) = focus.filter(|f| viewport.is_none_or(|v| v.scroll_to_show(f).is_some())) {
        // Where the view will be once centred on the focus.
        let centre = (f.start + f.end) / 2;
        ranges.push(centre.saturating_sub(span / 2)..(centre + span / 2 + 1).max(f.end));
    }
    let mut widened = ranges
        .into_iter()
        .map(|r| r.start.saturating_sub(margin).min(total)..(r.end + margin).min(total))
        .filter(|r| !r.is_empty());
    let (a, b) = (widened.next(), widened.next());
    // At most two ranges: put them in order by hand (a general sort costs kilobytes of download).
    let ordered = match (a, b) {
        (Some(a), Some(b)) if b.start < a.start => [Some(b), Some(a)],
        (a, b) => [a, b],
    };
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(2);
    for r in ordered.into_iter().flatten() {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

/// A scroller's rendering window, from [`use_scroll_window`].
pub struct ScrollWindow {
    /// Goes on the scrolling element.
    pub node: NodeRef,
    /// Goes on the scrolling element's `onscroll`.
    pub onscroll: Callback<Event>,
    /// The viewport as last seen (`None` until the scroller was scrolled or had to be measured).
    pub viewport: Option<Viewport>,
}

/// Tracks the viewport of a scroller over `columns` columns, and scrolls it when `focus` changes to columns out
/// of view. Layout is read only then, on scroll events and on window resizes.
#[hook]
pub fn use_scroll_window(columns: usize, focus: Option<Range<usize>>) -> ScrollWindow {
    let node = use_node_ref();
    let viewport = use_state_eq(|| None::<Viewport>);
    let onscroll = {
        let viewport = viewport.clone();
        Callback::from(move |e: Event| viewport.set(Some(Viewport::measure(&e.target_unchecked_into(), columns))))
    };
    {
        let (node, viewport) = (node.clone(), viewport.clone());
        use_effect_with(focus, move |focus| {
            let (Some(focus), Some(el)) = (focus, node.cast::<web_sys::Element>()) else { return };
            let known = *viewport;
            let seen = known.unwrap_or_else(|| Viewport::measure(&el, columns));
            if let Some(left) = seen.scroll_to_show(focus) {
                el.set_scroll_left(left);
                // The write laid the page out already: this read is free.
                viewport.set(Some(Viewport::measure(&el, columns)));
            } else if known.is_none() {
                viewport.set(Some(seen));
            }
        });
    }
    {
        // A resize can change both the visible width and the column width (the phone layout is denser).
        let (node, viewport) = (node.clone(), viewport.clone());
        use_effect_with(columns, move |&columns| {
            let listener = EventListener::new(&gloo::utils::window(), "resize", move |_| {
                if let Some(el) = node.cast::<web_sys::Element>() {
                    viewport.set(Some(Viewport::measure(&el, columns)));
                }
            });
            move || drop(listener)
        });
    }
    ScrollWindow { node, onscroll, viewport: *viewport }
}

#[cfg(test)]
mod tests {
    use super::{rendered, Viewport};

    const DESKTOP: Viewport = Viewport { left: 0, width: 400, column: 50 };

    #[test]
    fn a_viewport_sees_the_columns_it_overlaps_and_scrolls_only_when_needed() {
        let v = Viewport { left: 125, ..DESKTOP };
        assert_eq!(v.seen(), 2..11, "columns 2 (half) to 10 (half)");
        assert_eq!(v.span(), 9);
        assert_eq!(v.scroll_to_show(&(3..10)), None);
        assert_eq!(v.scroll_to_show(&(2..3)), Some(0), "centred, but never before the start");
        assert_eq!(v.scroll_to_show(&(20..21)), Some(1000 - 175));
        assert_eq!(v.scroll_to_show(&(0..30)), Some(0), "wider than the view: its start at the left edge");
    }

    #[test]
    fn short_content_renders_whole() {
        assert_eq!(rendered(20, 24, Some(DESKTOP), 16, Some(5..6), 6), vec![0..20]);
        assert_eq!(rendered(0, 24, None, 16, None, 6), vec![0..0]);
    }

    #[test]
    fn long_content_renders_the_visible_part_and_where_the_focus_will_scroll() {
        // Unmeasured: the first columns (the scroller starts at the left) and the focus.
        assert_eq!(rendered(200, 24, None, 16, None, 4), vec![0..20]);
        assert_eq!(rendered(200, 24, None, 16, Some(150..151), 4), vec![0..20, 138..163]);
        // Measured and already showing the focus: nothing more.
        let v = Viewport { left: 50 * 100, ..DESKTOP };
        assert_eq!(rendered(200, 24, Some(v), 16, Some(102..104), 4), vec![96..112]);
        // The focus elsewhere: both, merged when they overlap.
        assert_eq!(rendered(200, 24, Some(v), 16, Some(112..113), 4), vec![96..121]);
        assert_eq!(rendered(200, 24, Some(v), 16, Some(198..200), 4), vec![96..112, 191..200]);
        assert_eq!(rendered(200, 24, Some(v), 16, Some(10..11), 4), vec![2..19, 96..112], "in order");
    }
}
