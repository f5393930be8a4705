use super::*;
use crate::action::{self, NUM_ACTIONS};
use crate::objects::{BOMB_TTL, START_LIVES, START_SHOTS};
use crate::params::MissileType;
use playtune_optim::rng::rng_from_seed;

impl SbeState {
    /// Test access to the ships, to stage situations.
    pub(crate) fn ship_mut(&mut self, player: usize) -> &mut Ship {
        &mut self.ships[player]
    }
}

/// A fresh game with a fixed seed; the ships start still and far apart.
fn quiet(params: SbeParams) -> SbeState {
    SbeState::new(params, 1)
}

#[test]
fn new_game_starts_as_the_spec_says() {
    let s = SbeState::new(SbeParams::default(), 0);
    assert_eq!(s.ship(0).pos, Vec2::new(213.0, 160.0));
    assert_eq!(s.ship(1).dir, Vec2::new(0.0, -1.0));
    assert_eq!(
        (s.ship(0).lives, s.ship(0).shots),
        (START_LIVES, START_SHOTS)
    );
    assert_eq!((s.tick(), s.max_ticks(), s.game_over()), (0, 2000, false));
}

#[test]
fn missiles_never_hit_their_owner() {
    let mut s = quiet(SbeParams::default());
    // Twin missiles start at the ship centre, inside its radius.
    s.step([action::F, action::NIL]);
    assert_eq!(s.missiles().count(), 2);
    assert_eq!(s.ship(0).lives, START_LIVES);
    assert_eq!(s.ship(1).kills, 0);
}

#[test]
fn missiles_pass_through_each_other() {
    let mut s = quiet(SbeParams {
        missile_type: MissileType::Normal,
        ..SbeParams::default()
    });
    // Ship 1 faces ship 0 down the same vertical line: the missiles meet head on.
    s.ship_mut(1).pos = Vec2::new(213.0, 320.0);
    s.step([action::F, action::F]);
    for _ in 0..10 {
        s.step([action::NIL, action::NIL]);
    }
    assert_eq!(s.missiles().count(), 2);
    // After crossing, each missile goes on to hit the other ship.
    for _ in 0..20 {
        s.step([action::NIL, action::NIL]);
    }
    assert_eq!((s.ship(0).kills, s.ship(1).kills), (1, 1));
    assert_eq!(
        (s.ship(0).lives, s.ship(1).lives),
        (START_LIVES - 1, START_LIVES - 1)
    );
}

#[test]
fn a_hit_costs_a_life_scores_a_kill_and_removes_the_missile() {
    let mut s = quiet(SbeParams {
        missile_type: MissileType::Normal,
        ..SbeParams::default()
    });
    // Put ship 1 right where ship 0's next missile spawns.
    s.ship_mut(1).pos = Vec2::new(213.0, 200.0);
    s.step([action::F, action::NIL]);
    assert_eq!(s.ship(1).lives, START_LIVES - 1);
    assert_eq!(s.ship(0).kills, 1);
    assert_eq!(s.points(0), 100.0);
    assert_eq!(s.missiles().count(), 0);
}

#[test]
fn missiles_expire_after_their_ttl() {
    let params = SbeParams {
        missile_type: MissileType::Normal,
        missile_max_ttl: 40,
        ..SbeParams::default()
    };
    let mut s = quiet(params);
    s.ship_mut(1).pos = Vec2::new(600.0, 20.0);
    s.ship_mut(0).dir = Vec2::new(1.0, 0.0);
    s.ship_mut(0).pos = Vec2::new(0.0, 460.0);
    s.step([action::F, action::NIL]);
    for _ in 0..38 {
        s.step([action::NIL, action::NIL]);
    }
    assert_eq!(s.missiles().count(), 1, "alive for 39 ticks");
    s.step([action::NIL, action::NIL]);
    assert_eq!(s.missiles().count(), 0, "gone after 40");
}

#[test]
fn bomb_appears_where_a_bomb_missile_dies_and_lasts_two_ticks() {
    let mut params = SbeParams {
        missile_type: MissileType::Bomb,
        missile_max_ttl: 40,
        grid_size: 1,
        blackhole_force: 3,
        blackhole_radius: 200,
        ..SbeParams::default()
    };
    params.blackhole_cells[0] = true;
    let mut s = quiet(params);
    // Fire into the hole centred at (320, 240), away from ship 1.
    s.ship_mut(0).pos = Vec2::new(100.0, 240.0);
    s.ship_mut(0).dir = Vec2::new(1.0, 0.0);
    s.ship_mut(1).pos = Vec2::new(620.0, 20.0);
    s.step([action::F, action::NIL]);
    for _ in 0..38 {
        s.step([action::NIL, action::NIL]);
    }
    let mut last = s.missiles().next().expect("missile in its last tick");
    update_missile(&mut last, s.black_holes(), 3.0);
    s.step([action::NIL, action::NIL]);
    assert_eq!(s.missiles().count(), 0);
    let bomb = s.bombs().next().expect("a bomb where the missile died");
    assert_eq!((bomb.radius, bomb.ttl, bomb.owner), (20.0, BOMB_TTL, 0));
    assert_eq!(bomb.pos, last.pos);
    assert!(
        bomb.pos.distance(Vec2::new(320.0, 240.0)) < 200.0,
        "inside the hole"
    );
    // Bombs are not pulled by the hole and last two ticks.
    s.step([action::NIL, action::NIL]);
    assert_eq!(s.bombs().next().map(|b| b.pos), Some(bomb.pos));
    s.step([action::NIL, action::NIL]);
    assert_eq!(s.bombs().count(), 0);
}

#[test]
fn bomb_from_a_hit_can_hit_again() {
    let mut s = quiet(SbeParams {
        missile_type: MissileType::Bomb,
        ..SbeParams::default()
    });
    s.ship_mut(1).pos = Vec2::new(213.0, 200.0);
    s.step([action::F, action::NIL]);
    assert_eq!(s.ship(0).kills, 1);
    assert_eq!(s.bombs().count(), 1);
    s.step([action::NIL, action::NIL]);
    assert_eq!(s.ship(0).kills, 2, "the bomb explodes on the ship it hit");
    assert_eq!(s.bombs().count(), 0, "a bomb that hits is used up");
}

#[test]
fn packs_spawn_on_schedule_inside_the_map() {
    let params = SbeParams {
        resource_ttl: 400,
        resource_cooldown: 200,
        ..SbeParams::default()
    };
    let mut s = quiet(params);
    let mut spawned_at = Vec::new();
    let mut alive_ticks = 0;
    for _ in 0..1300 {
        let before = s.packs().count();
        let tick = s.tick();
        s.step([action::NIL, action::NIL]);
        if s.packs().count() > before {
            spawned_at.push(tick);
        }
        alive_ticks += s.packs().count();
        for p in s.packs() {
            assert!(p.pos.x >= 0.0 && p.pos.x < 640.0 && p.pos.y >= 0.0 && p.pos.y < 480.0);
        }
    }
    // With this seed no pack lands on a (still) ship, so each lives its full TTL.
    assert_eq!(s.ship(0).collected + s.ship(1).collected, 0);
    assert_eq!(spawned_at, vec![10, 610, 1210]);
    // A pack spawned during tick 10 meets the ships in ticks 10..=409 (its 400-tick
    // TTL) and leaves at the end of tick 409, so it is seen between ticks 399 times.
    assert_eq!(alive_ticks, 399 + 399 + 90);
}

#[test]
fn pack_pickup_gives_twenty_shots_and_ship_zero_goes_first() {
    let mut s = quiet(SbeParams::default());
    for _ in 0..10 {
        s.step([action::NIL, action::NIL]);
    }
    // The pack spawns during tick 10; put both ships on its future spot by
    // peeking at the generator through a copy.
    let mut peek = s.clone();
    peek.step([action::NIL, action::NIL]);
    let pack = peek.packs().next().expect("pack at tick 10");
    s.ship_mut(0).pos = pack.pos;
    s.ship_mut(1).pos = pack.pos;
    s.step([action::NIL, action::NIL]);
    assert_eq!(s.packs().count(), 0);
    assert_eq!(
        (s.ship(0).collected, s.ship(0).shots),
        (1, START_SHOTS + 20)
    );
    assert_eq!((s.ship(1).collected, s.ship(1).shots), (0, START_SHOTS));
    assert_eq!(s.points(0), 10.0);
}

#[test]
fn penalty_ticks_lower_the_score() {
    let mut params = SbeParams {
        grid_size: 1,
        blackhole_penalty: 5,
        blackhole_force: 0,
        ..SbeParams::default()
    };
    params.blackhole_cells[0] = true;
    let mut s = quiet(params);
    s.ship_mut(0).pos = Vec2::new(320.0, 240.0);
    for _ in 0..4 {
        s.step([action::NIL, action::NIL]);
    }
    assert_eq!(s.ship(0).penalty_ticks, 4);
    assert_eq!(s.ship(1).penalty_ticks, 0);
    assert_eq!(s.points(0), -2.0);
    assert_eq!(s.ship_stats(0).points, -2.0);
    assert_eq!(s.winner_flags(), [false, true]);
}

#[test]
fn winner_and_draw() {
    let mut s = quiet(SbeParams::default()).with_max_ticks(3);
    assert_eq!(s.winner_flags(), [true, true], "equal scores draw");
    s.ship_mut(1).kills = 1;
    assert_eq!(s.winner_flags(), [false, true]);
    for _ in 0..5 {
        s.step([action::NIL, action::NIL]);
    }
    assert_eq!(s.tick(), 3, "a finished game does not move");
    assert!(s.game_over());
    let mut s = quiet(SbeParams::default());
    s.ship_mut(0).lives = 0;
    assert!(s.game_over(), "no lives left ends the game");
}

fn random_game_states(seed: u64, ticks: usize, params: SbeParams) -> (SbeState, Vec<[u8; 2]>) {
    let mut rng = rng_from_seed(seed);
    let actions = (0..ticks)
        .map(|_| {
            [
                rng.random_range(0..NUM_ACTIONS),
                rng.random_range(0..NUM_ACTIONS),
            ]
        })
        .collect();
    (SbeState::new(params, seed), actions)
}

fn busy_params() -> SbeParams {
    let mut params = SbeParams {
        missile_type: MissileType::Bomb,
        missile_cooldown: 1,
        resource_ttl: 400,
        resource_cooldown: 200,
        grid_size: 3,
        ..SbeParams::default()
    };
    params.blackhole_cells[..9]
        .copy_from_slice(&[true, false, true, false, true, false, true, false, true]);
    params
}

#[test]
fn a_clone_follows_the_original_trajectory() {
    for params in [SbeParams::default(), busy_params()] {
        let (mut original, actions) = random_game_states(11, 700, params);
        let mut scratch = original.clone();
        for (t, a) in actions.iter().enumerate() {
            if t % 50 == 0 {
                // Re-branch a copy both ways and check it stays in lockstep.
                let mut copy = original.clone();
                scratch.clone_from(&original);
                for b in &actions[t..(t + 30).min(actions.len())] {
                    copy.step(*b);
                    scratch.step(*b);
                }
                assert_eq!(copy, scratch);
                let mut again = original.clone();
                for b in &actions[t..(t + 30).min(actions.len())] {
                    again.step(*b);
                }
                assert_eq!(again, copy);
            }
            let copy = original.clone();
            assert_eq!(copy, original);
            original.step(*a);
        }
        assert!(original.ship(0).shots_fired > 0);
    }
}

#[test]
fn same_seed_same_game_and_packs_depend_on_the_seed() {
    let run = |seed| {
        let (mut s, actions) = random_game_states(5, 1300, busy_params());
        s = SbeState::new(s.params().clone(), seed);
        for a in actions {
            s.step(a);
        }
        s
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}

#[test]
fn clone_from_and_stepping_reuse_the_object_buffer() {
    let (state, actions) = random_game_states(21, 600, busy_params());
    let mut state = state;
    let mut scratch = state.clone();
    let buffer = scratch.objects.as_ptr();
    let mut most = 0;
    for (t, a) in actions.iter().enumerate() {
        scratch.clone_from(&state);
        for b in &actions[t..(t + 10).min(actions.len())] {
            scratch.step(*b);
        }
        most = most.max(scratch.objects.len());
        state.step(*a);
    }
    assert!(most > 10, "the game was busy: {most} objects at most");
    assert!(most <= OBJECT_RESERVE, "the reserve covers a busy game");
    assert_eq!(scratch.objects.as_ptr(), buffer, "no reallocation");
}
