// The example platform's Pulumi policy pack: chartroom's rules, with the
// settings and custom rules of policies/, on what `pulumi preview` registers.
// CommonJS because Pulumi's policy runner loads the pack with require();
// chartroom is an ES module, so it comes in through import().
const { PolicyPack } = require("@pulumi/policy");

module.exports = import("chartroom/policy").then(({ chartroomPolicies }) => {
  new PolicyPack("chartroom", { policies: chartroomPolicies() });
});
