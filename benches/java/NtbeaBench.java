// Times the reference Java NTBEA (S. M. Lucas, github.com/SimonLucas/ntbea, MIT) on
// noisy OneMax, for benches/compare_java_ntbea.sh. This driver is playtune's own code; it
// is compiled against the reference's sources (javac -sourcepath REF/java/src), which
// pulls in only the classes it uses (evodef, ntbea, utilities; no Kotlin).
//
//   java -cp BUILD NtbeaBench DIMS BUDGET RUNS SEED [SIGMA K EPSILON NEIGHBOURS]
//
// One run: the reference's noisy OneMax (evodef.EvalMaxM with 2 values a dimension and
// Gaussian noise of sd SIGMA on the count of ones), a fresh NTupleSystem with 1-, 2- and
// the N-tuple (the class's defaults), NTupleBanditEA with k = K, epsilon = EPSILON and
// NEIGHBOURS neighbours, the reference's DefaultMutator (one dimension always flips, each
// with probability 2/D), BUDGET evaluations, then the reference's recommendation
// (getBestOfSampledPlusNeighbours: the evaluated point with the best model mean).
// RUNS such runs back to back in this one JVM; it prints one JSON line: the mean time of
// a run in ms (model set-up, search and recommendation; not JVM start), the share of runs
// whose recommendation is the all-ones point, and the mean true fitness of the
// recommendations. SEED seeds the reference's static Random objects, so a seed repeats
// its runs.

import evodef.DefaultMutator;
import evodef.EvalMaxM;
import evodef.SearchSpaceUtil;
import ntbea.EvaluateChoices;
import ntbea.NTupleBanditEA;
import ntbea.NTupleSystem;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.util.Locale;
import java.util.Random;

public class NtbeaBench {

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: NtbeaBench DIMS BUDGET RUNS SEED [SIGMA K EPSILON NEIGHBOURS]");
            System.exit(2);
        }
        int dims = Integer.parseInt(args[0]);
        int budget = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        double sigma = args.length > 4 ? Double.parseDouble(args[4]) : 1.0;
        double k = args.length > 5 ? Double.parseDouble(args[5]) : 5.0;
        double epsilon = args.length > 6 ? Double.parseDouble(args[6]) : 0.5;
        int neighbours = args.length > 7 ? Integer.parseInt(args[7]) : 50;

        // The reference keeps one static Random per class; seed them all from SEED.
        Random seeder = new Random(seed);
        for (Class<?> c : new Class<?>[]{EvalMaxM.class, DefaultMutator.class,
                SearchSpaceUtil.class, EvaluateChoices.class}) {
            Field f = c.getDeclaredField("random");
            f.setAccessible(true);
            ((Random) f.get(null)).setSeed(seeder.nextLong());
        }

        // runTrial prints a line or two a run ("Set neighbours to", "Resetting model"):
        // sent nowhere, as playtune runs with -q.
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));

        int optimal = 0;
        double trueTotal = 0;
        long start = System.nanoTime();
        for (int r = 0; r < runs; r++) {
            EvalMaxM problem = new EvalMaxM(dims, 2, sigma);
            NTupleSystem model = new NTupleSystem();
            model.use1Tuple = true;
            model.use2Tuple = true;
            model.use3Tuple = false;
            model.useNTuple = true;
            NTupleBanditEA ea = new NTupleBanditEA(k, neighbours).setEpsilon(epsilon);
            ea.setReportFrequency(0);
            ea.setModel(model);
            int[] solution = ea.runTrial(problem, budget);
            if (problem.isOptimal(solution)) optimal++;
            trueTotal += problem.trueFitness(solution);
        }
        long elapsed = System.nanoTime() - start;

        System.setOut(out);
        System.out.println(String.format(Locale.ROOT,
                "{\"dims\": %d, \"budget\": %d, \"runs\": %d, \"seed\": %d, \"sigma\": %s, "
                        + "\"k\": %s, \"epsilon\": %s, \"neighbours\": %d, \"mean_ms\": %.4f, "
                        + "\"success_share\": %.4f, \"mean_true_fitness\": %.4f}",
                dims, budget, runs, seed, sigma, k, epsilon, neighbours,
                elapsed / 1e6 / runs, (double) optimal / runs, trueTotal / runs));
    }
}
