// Times the Java Space Battle game (github.com/ljialin/spaceBattleGame, the base game
// Space Battle Evolved extends) for benches/compare_java_space_battle.sh. Compiled
// against that checkout's sources; playtune's own code is Rust, this driver only
// calls the reference's public API.
//
//   java SpaceBattleBench ticks GAMES TICKS            random against random
//   java SpaceBattleBench mcts GAMES TICKS ITERATIONS  its open-loop MCTS (rollout
//       depth 10) in seat 0 at a fixed number of iterations a decision, random in seat 1
//
// Prints one line: "ticks T seconds S ticks_per_second R decisions D decisions_per_second Q".

import controllers.multiPlayer.sampleOLMCTS.Agent;
import controllers.multiPlayer.sampleOLMCTS.SingleMCTSPlayer;
import controllers.multiPlayer.sampleOLMCTS.SingleTreeNode;
import core.game.StateObservationMulti;
import ontology.Types;

import java.util.Random;

public class SpaceBattleBench {
    public static void main(String[] args) {
        String mode = args[0];
        int games = Integer.parseInt(args[1]);
        int maxTicks = Integer.parseInt(args[2]);
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        boolean mcts = mode.equals("mcts");
        Random rnd = new Random(1);
        long ticks = 0;
        long decisions = 0;
        long start = System.nanoTime();
        for (int g = 0; g < games; g++) {
            StateObservationMulti state = new StateObservationMulti(false);
            Types.ACTIONS[] own = state.getAvailableActions(0).toArray(new Types.ACTIONS[0]);
            Types.ACTIONS[] other = state.getAvailableActions(1).toArray(new Types.ACTIONS[0]);
            SingleMCTSPlayer player = null;
            if (mcts) {
                // The agent's constructor sets the static tables its tree reads.
                new Agent(state, null, 0);
                player = new SingleMCTSPlayer(new Random(g));
            }
            for (int t = 0; t < maxTicks && !state.isGameOver(); t++) {
                Types.ACTIONS a0;
                if (mcts) {
                    a0 = own[decide(player, state, iterations)];
                    decisions++;
                } else {
                    a0 = own[rnd.nextInt(own.length)];
                }
                Types.ACTIONS a1 = other[rnd.nextInt(other.length)];
                state.advance(new Types.ACTIONS[]{a0, a1});
                ticks++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("ticks %d seconds %.4f ticks_per_second %.1f decisions %d decisions_per_second %.2f%n",
                ticks, seconds, ticks / seconds, decisions, decisions / seconds);
    }

    /** The reference's search loop (SingleTreeNode.mctsSearch) at a fixed number of
     * iterations instead of its time limit, as its own commented-out loop does. */
    static int decide(SingleMCTSPlayer player, StateObservationMulti state, int iterations) {
        player.init(state);
        SingleTreeNode root = player.m_root;
        for (int i = 0; i < iterations; i++) {
            StateObservationMulti copy = SingleTreeNode.rootState.copy();
            SingleTreeNode selected = root.treePolicy(copy);
            double delta = selected.rollOut(copy);
            root.backUp(selected, delta);
        }
        return root.mostVisitedAction();
    }
}
