//! The opening under Splendor's rules, through the public API: a player with no tokens
//! may take two of any colour whose bank pile holds at least `pick_same_min`, giving
//! nothing back, and no other colour.

use playtune_harness::game::Game;
use playtune_rinascimento::{Action, RinState, Rules, Tokens};

#[test]
fn two_of_a_colour_are_offered_exactly_where_the_pile_allows() {
    let rules = Rules::default();
    let s = RinState::new(&rules, 11).unwrap();
    let mut legal = Vec::new();
    s.legal_actions(0, &mut legal);
    for (colour, &pile) in s.bank().iter().enumerate() {
        let take_two = Action::PickSame {
            colour: colour as u8,
            give: Tokens::default(),
        };
        assert_eq!(
            legal.contains(&take_two),
            u32::from(pile) >= rules.pick_same_min,
            "colour {colour}, pile {pile}"
        );
    }
}
