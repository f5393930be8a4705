use playtune_harness::agents::random::*;
use playtune_harness::game::{Agent, Game};
use playtune_optim::rng::rng_from_seed;
use playtune_rinascimento::{RinState, Rules};
use playtune_space_battle::params::SbeParams;
use playtune_space_battle::state::SbeState;

#[test]
fn random_agent_plays_only_legal_actions() {
    let mut rng = rng_from_seed(3);
    let mut agent = RandomAgent;
    let mut s = SbeState::new(SbeParams::default(), 1).with_max_ticks(100);
    let mut legal = Vec::new();
    while !s.is_over() {
        assert!(s.legal_actions(0, &mut legal));
        let a = Agent::<SbeState>::act(&mut agent, &s, 0, &mut rng);
        let b = Agent::<SbeState>::act(&mut agent, &s, 1, &mut rng);
        assert!(legal.contains(&a) && legal.contains(&b));
        s.advance(&[a, b]);
    }
    let mut s = RinState::new(&Rules::splendor(3), 7).unwrap();
    let mut moves = 0;
    while !s.is_over() && moves < 300 {
        let playtune_harness::game::Acting::Player(p) = s.acting() else {
            panic!("Rinascimento is turn-based")
        };
        let a = agent.act(&s, p, &mut rng);
        assert!(s.is_legal(p, &a), "{a:?}");
        s.advance(&[a]);
        moves += 1;
    }
}
