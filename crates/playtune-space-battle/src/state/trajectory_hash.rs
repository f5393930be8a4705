use super::*;
use crate::action::NUM_ACTIONS;
use crate::params::MissileType;
use playtune_optim::rng::{mix64, rng_from_seed};

fn feed(h: &mut u64, v: u64) {
    *h = mix64(*h ^ v);
}

fn feed_vec(h: &mut u64, v: Vec2) {
    feed(h, v.x.to_bits());
    feed(h, v.y.to_bits());
}

fn state_hash(s: &SbeState, h: &mut u64) {
    for p in 0..2 {
        let ship = s.ship(p);
        feed_vec(h, ship.pos);
        feed_vec(h, ship.vel);
        feed_vec(h, ship.dir);
        for v in [
            ship.lives,
            ship.shots,
            ship.cooldown,
            ship.kills,
            ship.collected,
            ship.penalty_ticks,
            ship.shots_fired,
        ] {
            feed(h, u64::from(v));
        }
        feed(h, s.points(p).to_bits());
    }
    feed(h, s.objects().len() as u64);
    for o in s.objects().iter() {
        feed(h, o.kind as u64);
        feed(h, o.owner as u64);
        feed_vec(h, o.pos);
        feed_vec(h, o.vel);
        feed(h, o.radius.to_bits());
        feed(h, u64::from(o.ttl));
        feed(h, u64::from(o.alive) | u64::from(o.explodes) << 1);
    }
    feed(h, u64::from(s.tick()));
}

fn run(params: SbeParams, seed: u64) -> u64 {
    let mut rng = rng_from_seed(seed ^ 0xABCD);
    let mut s = SbeState::new(params, seed);
    let mut h = 0;
    for _ in 0..2000 {
        let a = [
            rng.random_range(0..NUM_ACTIONS),
            rng.random_range(0..NUM_ACTIONS),
        ];
        s.step(a);
        state_hash(&s, &mut h);
    }
    assert_eq!(s.tick(), 2000);
    assert!(s.ship(0).kills + s.ship(1).kills > 0, "the game saw hits");
    h
}

fn eight_holes(missile_type: MissileType, radius: u32, force: u32) -> SbeParams {
    let mut p = SbeParams {
        missile_type,
        missile_cooldown: 1,
        missile_max_ttl: 160,
        grid_size: 3,
        blackhole_radius: radius,
        blackhole_force: force,
        blackhole_penalty: 7,
        safe_zone: 10,
        resource_ttl: 400,
        resource_cooldown: 200,
        ..SbeParams::default()
    };
    for c in 0..8 {
        p.blackhole_cells[c] = true;
    }
    p
}

#[test]
fn trajectories_are_bit_identical() {
    let cases = [
        (eight_holes(MissileType::Bomb, 100, 3), 7),
        (eight_holes(MissileType::Bomb, 200, 1), 8),
        (eight_holes(MissileType::Twin, 75, 2), 9),
        (SbeParams::default(), 10),
    ];
    let hashes: Vec<u64> = cases.into_iter().map(|(p, seed)| run(p, seed)).collect();
    assert_eq!(hashes, EXPECTED, "{hashes:#x?}");
}

const EXPECTED: [u64; 4] = [
    10072267660615586770,
    3213399980964266437,
    10520084661620392350,
    6240693724506278300,
];
