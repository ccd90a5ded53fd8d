//! The page's language as context. The page (and the widget) provide the language its texts are
//! shown in; a component reads it with [`locale`] rather than taking it as a property from its
//! parent. Plain functions that write a sentence still take the language as an argument.
//!
//! A language switch builds the page again in the new language (the state is in signals outside
//! it, so nothing typed is lost): a switch is rare, and it keeps every text a plain DOM text node,
//! where a text that follows a language signal would cost an effect and a closure each.

use leptos::prelude::*;
use vramfit_i18n::Locale;

/// Makes `l` the language of every component built below the current owner.
pub fn provide_locale(l: Locale) {
    provide_context(l);
}

/// The language of the texts shown: English where no page provided one (a unit test).
pub fn locale() -> Locale {
    use_context::<Locale>().unwrap_or_default()
}
