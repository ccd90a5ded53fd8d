//! The leaves every view uses: form fields and their problems ([`field`]), number formatting
//! ([`numbers`]), core enums → message keys ([`text`]), the shared widgets ([`widgets`]), HTML
//! text written as one string ([`markup`]) and the page's language as context ([`locale`]).
//! Nothing here imports another folder of the crate.

pub mod field;
pub mod locale;
pub mod markup;
pub mod numbers;
pub mod text;
pub mod widgets;
