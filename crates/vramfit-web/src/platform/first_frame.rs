//! What the page builds in the task after its first frame: the inputs column. The verdict, what
//! people open the page for, is then painted without waiting for the form's hundred-odd elements
//! to be built; the column's width is held by an empty placeholder, so nothing moves when they
//! arrive one frame later.

use leptos::prelude::*;
use std::time::Duration;

/// Turns true in the task after the next frame has been painted (a timeout queued from an
/// animation frame callback runs after that frame).
pub fn after_first_frame() -> Signal<bool> {
    let done = RwSignal::new(false);
    request_animation_frame(move || set_timeout(move || done.set(true), Duration::ZERO));
    done.into()
}
