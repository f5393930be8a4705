//! Each rule on its own: enumeration of the legal actions, picking, giving back,
//! reserving, buying, nobles, the end of the game and its ties, stalemates, the action
//! limit and illegal actions.

use super::*;

#[test]
fn enumeration_lists_distinct_legal_actions() {
    let mut rng = rng_from_seed(3);
    let mut all = Vec::new();
    for seed in 0..10 {
        let mut s = RinState::new(
            &Rules {
                max_tokens: 6,
                ..Rules::default()
            },
            seed,
        )
        .unwrap();
        while !s.is_over() {
            let p = s.current_player();
            assert!(s.legal_actions(p, &mut all));
            assert!(!all.is_empty());
            let distinct: HashSet<Action> = all.iter().copied().collect();
            assert_eq!(distinct.len(), all.len());
            assert!(all.iter().all(|a| s.is_legal(p, a)));
            // Only the player to move has actions.
            let mut other = Vec::new();
            assert!(s.legal_actions((p + 1) % 4, &mut other) && other.is_empty());
            assert!(s.random_action((p + 1) % 4, &mut rng).is_none());
            s.advance(&[all[rng.random_range(0..all.len())]]);
        }
    }
}

#[test]
fn enumeration_gives_up_past_the_cap() {
    // 8 colours, pick 4 of 8 (70 sets), hand full of many colours: give-backs explode.
    let rules = Rules {
        token_types: 8,
        pick_diff_types: 4,
        max_tokens: 10,
        ..Rules::default()
    };
    let mut s = RinState::new(&rules, 1).unwrap();
    for c in 0..8 {
        s.hands[0].tokens[c] = 1;
        s.bank[c] -= 1;
    }
    s.hands[0].tokens[0] += 2;
    s.bank[0] -= 2;
    let mut out = Vec::new();
    assert!(!s.legal_actions(0, &mut out));
    assert!(out.is_empty());
    assert!(s.random_action(0, &mut rng_from_seed(1)).is_some());
}

#[test]
fn pick_different_takes_as_many_colours_as_allowed() {
    let mut s = fresh();
    let mut all = Vec::new();
    s.legal_actions(0, &mut all);
    let picks: Vec<&Action> = all
        .iter()
        .filter(|a| a.kind() == ActionKind::PickDifferent)
        .collect();
    assert_eq!(picks.len(), 10); // 3 of 5 colours
    let no_give = Tokens::default();
    assert!(s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0, 1, 2], 1),
            give: no_give
        }
    ));
    assert!(!s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0, 1], 1),
            give: no_give
        }
    ));
    assert!(!s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0, 1, 2], 2),
            give: no_give
        }
    ));
    assert!(!s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0, 1, 5], 1),
            give: no_give
        }
    ));
    // Only two stacks left: the pick takes both.
    for c in 2..5 {
        s.hands[1].tokens[c] = s.bank[c];
        s.bank[c] = 0;
    }
    assert!(s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0, 1], 1),
            give: no_give
        }
    ));
    assert!(!s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0], 1),
            give: no_give
        }
    ));
    s.play(&Action::PickDifferent {
        take: take(&[0, 1], 1),
        give: no_give,
    });
    assert_eq!(&s.hand(0).tokens[..5], &[1, 1, 0, 0, 0]);
    assert_eq!(&s.bank()[..2], &[6, 6]);
    assert_eq!(s.current_player(), 1);
    // nTPD = 2 takes what a thinner stack holds.
    let mut s = RinState::new(
        &Rules {
            pick_diff_each: 2,
            ..Rules::default()
        },
        1,
    )
    .unwrap();
    s.bank[0] = 1;
    s.hands[1].tokens[0] = 6;
    let mut t = take(&[1, 2], 2);
    t[0] = 1;
    assert!(s.is_legal(
        0,
        &Action::PickDifferent {
            take: t,
            give: no_give
        }
    ));
    assert!(!s.is_legal(
        0,
        &Action::PickDifferent {
            take: take(&[0, 1, 2], 2),
            give: no_give
        }
    ));
}

#[test]
fn pick_same_needs_a_stack_of_min_tps() {
    let mut s = fresh();
    let no_give = Tokens::default();
    s.bank[2] = 4;
    s.hands[1].tokens[2] = 3;
    assert!(s.is_legal(
        0,
        &Action::PickSame {
            colour: 2,
            give: no_give
        }
    ));
    s.bank[2] = 3;
    s.hands[1].tokens[2] = 4;
    assert!(!s.is_legal(
        0,
        &Action::PickSame {
            colour: 2,
            give: no_give
        }
    ));
    assert!(!s.is_legal(
        0,
        &Action::PickSame {
            colour: 5,
            give: no_give
        }
    ));
    s.play(&Action::PickSame {
        colour: 0,
        give: no_give,
    });
    assert_eq!(s.hand(0).tokens[0], 2);
    assert_eq!(s.bank()[0], 5);
    // No stack of 4: the kind is not offered.
    let mut s = fresh();
    for c in 0..5 {
        s.bank[c] = 3;
        s.hands[1].tokens[c] = 4;
    }
    let mut rng = rng_from_seed(0);
    assert!(
        s.random_action_of(0, ActionKind::PickSame, &mut rng)
            .is_none()
    );
    for _ in 0..50 {
        assert_ne!(
            s.random_action(0, &mut rng).unwrap().kind(),
            ActionKind::PickSame
        );
    }
}

#[test]
fn give_backs_return_exactly_the_excess() {
    let mut s = fresh();
    // 9 tokens in hand; picking 3 makes 12: two must go back.
    s.hands[0].tokens[..5].copy_from_slice(&[3, 3, 3, 0, 0]);
    for c in 0..3 {
        s.bank[c] -= 3;
    }
    let t = take(&[2, 3, 4], 1);
    assert!(!s.is_legal(
        0,
        &Action::PickDifferent {
            take: t,
            give: Tokens::default()
        }
    ));
    let mut one = Tokens::default();
    one.colours[0] = 1;
    assert!(!s.is_legal(0, &Action::PickDifferent { take: t, give: one }));
    let mut two = one;
    two.colours[3] = 1;
    assert!(s.is_legal(0, &Action::PickDifferent { take: t, give: two }));
    let bad = Tokens {
        gold: 2,
        ..Tokens::default()
    };
    assert!(!s.is_legal(0, &Action::PickDifferent { take: t, give: bad }));
    // Enumeration: multisets of size 2 over the hand {3,3,4,1,1}.
    let mut all = Vec::new();
    s.legal_actions(0, &mut all);
    let with_t = all
        .iter()
        .filter(|a| matches!(a, Action::PickDifferent { take, .. } if *take == t))
        .count();
    // Types with >= 2: 0,1,2 (3 pairs) ; distinct pairs over 5 types: 10.
    assert_eq!(with_t, 13);
    let mut rng = rng_from_seed(9);
    for _ in 0..100 {
        if let Some(Action::PickDifferent { give, .. }) =
            s.random_action_of(0, ActionKind::PickDifferent, &mut rng)
        {
            assert_eq!(give.total(), 2);
        }
    }
    s.play(&Action::PickDifferent { take: t, give: two });
    assert_eq!(s.hand(0).token_total(), 10);
    check_invariants(&s);
    // A reserve at 10 tokens with a joker left returns one token (the joker may go back).
    let mut s = fresh();
    s.hands[0].tokens[..5].copy_from_slice(&[2, 2, 2, 2, 2]);
    for c in 0..5 {
        s.bank[c] -= 2;
    }
    let card = s.face_up(0)[0];
    let g = Tokens {
        gold: 1,
        ..Tokens::default()
    };
    assert!(!s.is_legal(
        0,
        &Action::ReserveFaceUp {
            deck: 0,
            slot: 0,
            card,
            give: Tokens::default()
        }
    ));
    assert!(s.is_legal(
        0,
        &Action::ReserveFaceUp {
            deck: 0,
            slot: 0,
            card,
            give: g
        }
    ));
    s.play(&Action::ReserveFaceUp {
        deck: 0,
        slot: 0,
        card,
        give: g,
    });
    assert_eq!(
        (s.hand(0).gold, s.bank_gold(), s.hand(0).token_total()),
        (0, 5, 10)
    );
    check_invariants(&s);
}

#[test]
fn reserving_gives_a_joker_only_if_one_is_left() {
    let mut s = fresh();
    let card = s.face_up(1)[2];
    let top = *s.deck(1).last().unwrap();
    s.play(&Action::ReserveFaceUp {
        deck: 1,
        slot: 2,
        card,
        give: Tokens::default(),
    });
    assert_eq!((s.hand(0).gold, s.bank_gold()), (1, 4));
    assert_eq!(s.hand(0).reserved(), &[card]);
    assert!(!s.hand(0).is_hidden(0));
    assert_eq!(s.face_up(1)[2], top, "slot refilled from the deck top");
    // Player 1 reserves a deck top with no joker left.
    let mut s = fresh();
    s.hands[2].gold = 5;
    s.bank_gold = 0;
    s.current = 1;
    let top = *s.deck(2).last().unwrap();
    let len = s.deck_len(2);
    s.play(&Action::ReserveDeck {
        deck: 2,
        give: Tokens::default(),
    });
    assert_eq!(s.hand(1).gold, 0);
    assert_eq!(s.hand(1).reserved(), &[top]);
    assert!(s.hand(1).is_hidden(0));
    assert_eq!(s.deck_len(2), len - 1);
    // The reserve limit.
    let mut s = fresh();
    for _ in 0..3 {
        s.current = 0;
        s.play(&Action::ReserveDeck {
            deck: 0,
            give: Tokens::default(),
        });
    }
    s.current = 0;
    assert_eq!(s.hand(0).reserved().len(), 3);
    assert!(!s.is_legal(
        0,
        &Action::ReserveDeck {
            deck: 0,
            give: Tokens::default()
        }
    ));
    let mut rng = rng_from_seed(1);
    assert!(
        s.random_action_of(0, ActionKind::ReserveDeck, &mut rng)
            .is_none()
    );
    assert!(
        s.random_action_of(0, ActionKind::ReserveFaceUp, &mut rng)
            .is_none()
    );
}

#[test]
fn buying_uses_bonuses_then_tokens_then_jokers() {
    let mut s = fresh();
    let card = s.face_up(0)[0];
    let c = *s.card(card);
    let n = 5;
    // One bonus in every colour, and one token fewer than the rest of the cost in every
    // colour that costs more than 1: jokers cover the shortfall.
    let mut shortfall = 0;
    for k in 0..n {
        s.hands[0].bonuses[k] = 1;
        let need = c.cost[k].saturating_sub(1);
        let have = need.saturating_sub(1);
        shortfall += need - have;
        s.hands[0].tokens[k] = have;
        s.bank[k] -= have;
    }
    s.hands[0].cards = 5; // the bonuses' cards
    // Not enough jokers: illegal.
    let action = Action::BuyFaceUp {
        deck: 0,
        slot: 0,
        card,
    };
    if shortfall > 0 {
        s.hands[0].gold = shortfall - 1;
        s.bank_gold -= shortfall - 1;
        assert!(!s.is_legal(0, &action));
        s.hands[0].gold += 1;
        s.bank_gold -= 1;
    }
    assert!(s.is_legal(0, &action));
    let bank_before: Vec<u8> = s.bank().to_vec();
    let tokens_before = s.hand(0).tokens;
    s.play(&action);
    let h = s.hand(0);
    assert_eq!(h.gold, 0);
    assert_eq!(h.bonuses[c.bonus as usize], 2);
    assert_eq!(h.cards, 6);
    assert_eq!(h.points, c.points);
    for k in 0..n {
        assert_eq!(h.tokens[k], 0);
        assert_eq!(s.bank()[k], bank_before[k] + tokens_before[k]);
    }
    assert_eq!(s.bank_gold(), 5);
    assert_ne!(s.face_up(0)[0], card);
    // Buying a reserved card removes it from the reserve.
    let mut s = fresh();
    s.play(&Action::ReserveDeck {
        deck: 0,
        give: Tokens::default(),
    });
    let r = s.hand(0).reserved()[0];
    s.current = 0;
    for k in 0..n {
        s.hands[0].tokens[k] = s.card(r).cost[k];
        s.bank[k] -= s.card(r).cost[k];
    }
    assert!(s.is_legal(0, &Action::BuyReserved { card: r }));
    s.play(&Action::BuyReserved { card: r });
    assert!(s.hand(0).reserved().is_empty());
    assert_eq!(s.hand(0).gold, 1, "the joker was not needed");
    check_invariants(&s);
}

#[test]
fn a_noble_visits_once_per_turn() {
    let mut s = fresh();
    let first = s.nobles()[0];
    let second = s.nobles()[1];
    let mut bonuses = [0u8; MAX_COLOURS];
    for id in [first, second] {
        for (c, b) in bonuses.iter_mut().enumerate() {
            *b = (*b).max(s.content().nobles[id as usize].requires[c]);
        }
    }
    s.hands[0].bonuses = bonuses;
    s.hands[0].cards = bonuses.iter().sum();
    let pick = s
        .random_action_of(0, ActionKind::PickDifferent, &mut rng_from_seed(1))
        .unwrap();
    s.play(&pick);
    assert_eq!((s.hand(0).nobles, s.hand(0).points), (1, 3));
    assert!(!s.nobles().contains(&first) && s.nobles().contains(&second));
    for _ in 0..3 {
        let p = s.current_player();
        let a = s
            .random_action_of(p, ActionKind::PickDifferent, &mut rng_from_seed(2))
            .unwrap();
        s.play(&a);
    }
    let pick = s
        .random_action_of(0, ActionKind::PickDifferent, &mut rng_from_seed(3))
        .unwrap();
    s.play(&pick);
    assert_eq!((s.hand(0).nobles, s.hand(0).points), (2, 6));
    assert_eq!(s.nobles().len(), 3);
}

#[test]
fn reaching_the_points_completes_the_round() {
    for trigger in 0..4usize {
        let mut s = fresh();
        s.hands[trigger].points = 15;
        let mut played = 0;
        while !s.is_over() {
            s.play(&pick_for(&s));
            played += 1;
        }
        // Before the trigger's turn nothing ends; after it the round runs to seat 3.
        assert_eq!(played, 4, "trigger at seat {trigger}");
        assert_eq!(s.end_reason(), Some(EndReason::Points));
        let w = s.winners();
        assert_eq!(w.iter().filter(|&&x| x).count(), 1);
        assert!(w[trigger]);
    }
    // A trigger in the second round ends after seat 3 of that round.
    let mut s = fresh();
    for _ in 0..5 {
        s.play(&pick_for(&s));
    }
    s.hands[1].points = 20;
    assert!(!s.is_over());
    for _ in 0..2 {
        s.play(&pick_for(&s));
    }
    assert!(!s.is_over());
    s.play(&pick_for(&s));
    assert!(s.is_over());
    assert_eq!(s.step_count(), 8);
}

#[test]
fn ties_go_to_fewest_cards_then_all_tied() {
    let mut s = fresh();
    s.end = Some(EndReason::Points);
    for q in 0..4 {
        s.hands[q].points = 15;
        s.hands[q].cards = 10;
    }
    s.hands[0].points = 14;
    s.hands[2].cards = 9;
    assert_eq!(s.winners(), vec![false, false, true, false]);
    s.hands[3].cards = 9;
    assert_eq!(s.winners(), vec![false, false, true, true]);
    s.hands[0].points = 16;
    s.hands[0].cards = 30;
    assert_eq!(s.winners(), vec![true, false, false, false]);
    s.end = Some(EndReason::Stalemate);
    assert_eq!(s.winners(), vec![false; 4]);
    s.end = Some(EndReason::Timeout);
    assert_eq!(s.winners(), vec![false; 4]);
    assert_eq!(s.score(0), 16.0);
}

#[test]
fn a_player_without_legal_actions_is_a_stalemate() {
    let mut s = RinState::new(&Rules::splendor(2), 5).unwrap();
    // All colour tokens and jokers with player 0; player 1 has a full reserve of cards
    // it cannot pay for, and no tokens.
    for c in 0..5 {
        s.hands[0].tokens[c] = s.bank[c];
        s.bank[c] = 0;
    }
    s.hands[0].gold = s.bank_gold;
    s.bank_gold = 0;
    for _ in 0..3 {
        let card = s.draw(2).unwrap();
        s.hands[1].push_reserved(card, true);
    }
    assert!(s.has_legal_action(0));
    assert!(!s.has_legal_action(1));
    s.play(&Action::ReserveDeck {
        deck: 0,
        give: Tokens::default(),
    });
    assert_eq!(s.end_reason(), Some(EndReason::Stalemate));
    assert!(s.is_over() && s.is_stalemate());
    assert_eq!(s.winners(), vec![false, false]);
    assert!(s.random_action(1, &mut rng_from_seed(0)).is_none());
    let mut out = vec![];
    assert!(s.legal_actions(1, &mut out) && out.is_empty());
    // Playing on a finished game changes nothing.
    let steps = s.step_count();
    s.advance(&[Action::BuyReserved { card: 0 }]);
    assert_eq!(s.step_count(), steps);
}

#[test]
fn the_action_limit_ends_the_game_as_a_stalemate() {
    let rules = Rules {
        max_actions: 10,
        ..Rules::default()
    };
    let mut s = RinState::new(&rules, 1).unwrap();
    let mut rng = rng_from_seed(1);
    while !s.is_over() {
        let a = s.random_action(s.current_player(), &mut rng).unwrap();
        s.advance(&[a]);
    }
    assert_eq!(
        (s.step_count(), s.end_reason()),
        (10, Some(EndReason::Timeout))
    );
    assert!(s.is_stalemate());
    assert_eq!(s.winners(), vec![false; 4]);
    // The default limit is 300.
    let mut s = fresh();
    s.actions = 299;
    s.play(&pick_for(&s));
    assert_eq!(s.end_reason(), Some(EndReason::Timeout));
}

#[test]
fn illegal_actions_pass_the_turn() {
    let mut s = fresh();
    let before = s.clone();
    s.play(&Action::BuyReserved { card: 3 });
    assert_eq!(s.current_player(), 1);
    assert_eq!(s.step_count(), 1);
    assert_eq!(s.hand(0), before.hand(0));
    assert_eq!(s.bank(), before.bank());
}
