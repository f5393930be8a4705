//! Each refusal of the optimisers' crate is a typed value a caller outside it can act
//! on, not only a message: these match the variants as a user's program would.

use playtune_optim::eval::{AxisError, FeatureAxis, ReplyError, parse_reply};
use playtune_optim::settings::{PairsError, parse_pairs};
use playtune_optim::space::{
    ConstraintProblem, Dimension, Domain, DomainProblem, Error, FixProblem, Space,
    constraint::parse_list,
};

fn two_dims() -> Space {
    let dim = |name: &str, domain| Dimension {
        name: name.into(),
        domain,
        default: 0,
        fixed: false,
    };
    Space {
        name: "s".into(),
        dims: vec![
            dim(
                "x",
                Domain::Int {
                    min: 0,
                    max: 3,
                    step: 1,
                },
            ),
            dim("y", Domain::Bool),
        ],
        groups: vec![],
        constraints: vec![],
    }
}

#[test]
fn a_domain_that_cannot_be_searched_says_which_way() {
    let empty = Domain::Int {
        min: 3,
        max: 1,
        step: 1,
    };
    assert_eq!(
        empty.check(),
        Err(DomainProblem::EmptyIntRange { min: 3, max: 1 })
    );
    let step = Domain::Int {
        min: 0,
        max: 4,
        step: 0,
    };
    assert_eq!(step.check(), Err(DomainProblem::Step(0)));
}

#[test]
fn a_fix_names_its_problem() {
    let mut space = two_dims();
    match space.fix("z", "1") {
        Err(Error::Fix {
            problem: FixProblem::UnknownDimension(name),
            ..
        }) => assert_eq!(name, "z"),
        other => panic!("{other:?}"),
    }
    match space.fix_all(&["x".into()]) {
        Err(Error::Fix {
            problem: FixProblem::Syntax,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_constraint_that_does_not_read_names_its_problem() {
    let refused = parse_list("moves in 5..2").unwrap_err();
    assert!(
        matches!(
            refused,
            Error::Constraint {
                problem: ConstraintProblem::EmptyRange(lo, hi),
                ..
            } if lo == 5.0 && hi == 2.0
        ),
        "{refused:?}"
    );
}

#[test]
fn a_pair_that_does_not_read_names_its_item() {
    let PairsError { item, .. } = parse_pairs(["a=1", "b"]).unwrap_err();
    assert_eq!(item, "b");
}

#[test]
fn an_axis_is_malformed_or_out_of_bounds() {
    assert!(matches!(
        "x=1:2".parse::<FeatureAxis>(),
        Err(AxisError::Malformed(_))
    ));
    assert!(matches!(
        "x=2:1:10".parse::<FeatureAxis>(),
        Err(AxisError::Bounds(_))
    ));
}

#[test]
fn an_evaluators_reply_is_refused_by_kind() {
    let features = vec!["moves".to_string()];
    assert!(matches!(
        parse_reply(&features, 7, r#"{"id": 8, "fitness": 1.0}"#),
        Err(ReplyError::WrongId { id: 7, .. })
    ));
    assert!(matches!(
        parse_reply(&features, 7, r#"{"id": 7, "fitness": 1.0, "features": {}}"#),
        Err(ReplyError::NoFeature { .. })
    ));
}
