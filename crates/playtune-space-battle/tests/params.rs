//! Hand-built parameters are checked against Table I's domains, and a value outside
//! one is the typed `ParamError`, naming the parameter, the value and its domain.

use playtune_space_battle::{ParamError, SbeParams};

#[test]
fn a_parameter_off_its_domain_is_named_with_its_domain() {
    assert_eq!(SbeParams::default().validate(), Ok(()));
    let fast = SbeParams {
        missile_max_speed: 11,
        ..SbeParams::default()
    };
    let ParamError {
        name,
        value,
        domain,
    } = fast.validate().unwrap_err();
    assert_eq!(name, "MISSILE_MAX_SPEED");
    assert_eq!(value, 11.0);
    assert_eq!(domain.first(), Some(&1.0));
    assert_eq!(domain.last(), Some(&10.0));
}
