use super::*;

const GOOD: &str = r#"(
    name: "t",
    dims: [
        (name: "speed", kind: Int(min: 1, max: 10), default: 5),
        (name: "radius", kind: List([2, 4, 6]), default: 4),
        (name: "missile", kind: Categories(["normal", "twin"]), default: "twin"),
        (name: "cell", kind: Bool, default: true),
        (name: "c", kind: Float(min: 0.0, max: 2.0, levels: 5), default: 0.5),
    ],
    groups: [(name: "layout", dims: ["cell"])],
)"#;

#[test]
fn parses_every_kind_with_defaults() {
    let s = parse_space(GOOD, "t.ron").unwrap();
    assert_eq!(s.len(), 5);
    assert_eq!(
        s.decode(&s.default_indices()),
        vec![5.0, 4.0, 1.0, 1.0, 0.5]
    );
    assert_eq!(s.size(), 10.0 * 3.0 * 2.0 * 2.0 * 5.0);
}

#[test]
fn a_point_keeps_its_fixed_dimensions() {
    let mut s = parse_space(GOOD, "t.ron").unwrap();
    s.fix_all(&["missile=normal".into(), "radius=6".into()])
        .unwrap();
    let mut x = s.decode(&s.default_indices());
    assert_eq!(s.check_fixed(&x), Ok(()));
    x[0] = 9.0; // speed is searched
    assert_eq!(s.check_fixed(&x), Ok(()));
    x[2] = 1.0; // missile: twin
    let e = s.check_fixed(&x).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`missile` is fixed at normal in this space, and the point gives twin: a point moves only the searched dimensions"
    );
    x[2] = 0.0;
    x[1] = 4.0;
    assert!(
        matches!(s.check_fixed(&x), Err(crate::space::Error::MovesFixed { dim, .. }) if dim == "radius")
    );
}

fn err(text: &str) -> SpaceError {
    parse_space(text, "bad.ron").unwrap_err()
}

#[test]
fn errors_name_line_and_field() {
    let e = err(&GOOD.replace("max: 10), default: 5", "max: 10, step: 4), default: 5"));
    assert_eq!(
        (e.line, e.field.as_str()),
        (4, "dimension `speed`.kind"),
        "{e}"
    );
    assert!(e.message.contains("does not divide"), "{e}");

    let e = err(&GOOD.replace("min: 1, max: 10", "min: 10, max: 1"));
    assert!(e.message.contains("empty range"), "{e}");

    let e = err(&GOOD.replace("default: 4", "default: 5"));
    assert_eq!(
        (e.line, e.field.as_str()),
        (5, "dimension `radius`.default"),
        "{e}"
    );

    let e = err(&GOOD.replace("\"radius\"", "\"speed\""));
    assert_eq!(e.line, 5, "{e}");
    assert!(
        e.message.contains("duplicate") && e.message.contains("line 4"),
        "{e}"
    );

    let e = err(&GOOD.replace("Bool, default", "Boolean, default"));
    assert_eq!(e.line, 7, "{e}");
    assert!(e.field.contains("kind"), "{e}");

    let e = err(&GOOD.replace("levels: 5), default", "levels: 5), defalt"));
    assert_eq!(e.line, 8, "{e}");

    let e = err(&GOOD.replace("dims: [\"cell\"]", "dims: [\"celll\"]"));
    assert!(e.message.contains("unknown dimension `celll`"), "{e}");
    assert_eq!(e.line, 10);

    let e = err(&GOOD.replace("List([2, 4, 6])", "List([])"));
    assert!(e.message.contains("empty"), "{e}");
}
