use crate::helpers::rin_decisions_per_second;
use playtune_harness::agents::{Bmrh, BmrhConfig, MicrobialConfig, MicrobialEa, Srh, SrhConfig};

#[test]
#[ignore = "timing report: cargo test --release --test agents_on_games decisions_per_second -- --ignored --nocapture"]
fn decisions_per_second_at_budget_1000() {
    let budget = 1000;
    let bmrh = rin_decisions_per_second(&mut Bmrh::new(BmrhConfig {
        evaluations: usize::MAX,
        budget,
        ..BmrhConfig::default()
    }));
    let srh = rin_decisions_per_second(&mut Srh::new(SrhConfig {
        evaluations: usize::MAX,
        budget,
        ..SrhConfig::default()
    }));
    let microbial = rin_decisions_per_second(&mut MicrobialEa::new(MicrobialConfig {
        budget,
        ..MicrobialConfig::default()
    }));
    println!(
        "Rinascimento, budget {budget} calls: BMRH {bmrh:.0}/s, SRH {srh:.0}/s, \
         MicrobialEA {microbial:.0}/s decisions"
    );
}
