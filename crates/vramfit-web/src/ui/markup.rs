//! Markup written as one string and set as its element's `innerHTML`, for the two places where
//! a view per node costs the page more than the string: the chart's drawing (`answer/chart.rs`:
//! dozens of SVG lines and labels, all recomputed when the curve moves, none holding state) and
//! the long option lists of the model and card selects (`workload/inputs.rs`: an element and an
//! effect per option was the first render's largest cost). Everything else is a Leptos view.
//! Texts are escaped. No `style` attributes: the offline file's CSP allows none.

/// Text made safe inside HTML text and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` escaped for HTML text and double-quoted attributes.
pub fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Appends `<tag class="class" [attr="value"…]>text</tag>`; `class` and the attribute names are
/// fixed identifiers of the page, the values and the text are escaped.
pub fn push_element(out: &mut String, tag: &str, class: &str, attrs: &[(&str, &str)], text: &str) {
    out.push('<');
    out.push_str(tag);
    out.push_str(" class=\"");
    push_escaped(out, class);
    out.push('"');
    for (name, value) in attrs {
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        push_escaped(out, value);
        out.push('"');
    }
    out.push('>');
    push_escaped(out, text);
    out.push_str("</");
    out.push_str(tag);
    out.push('>');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text_and_attribute_values() {
        let mut s = String::new();
        push_element(
            &mut s,
            "span",
            "chip fits",
            &[("title", "a \"b\" <c>")],
            "x & y",
        );
        assert_eq!(
            s,
            r#"<span class="chip fits" title="a &quot;b&quot; &lt;c&gt;">x &amp; y</span>"#
        );
    }
}
