// SPDX-License-Identifier: MIT
// An ERC-20 token for the node's contract tests: written here, compiled by solc from npm.
pragma solidity ^0.8.20;

contract Token {
    string public name;
    string public symbol;
    uint8 public constant decimals = 9;
    uint256 public totalSupply;
    address public owner;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "Token: allowance too low");
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "Token: only the owner mints");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    /// The chain and block the EVM runs in, for the tests of the environment.
    function env() external view returns (uint256 chain, uint256 height, uint256 time, address self) {
        return (block.chainid, block.number, block.timestamp, address(this));
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "Token: transfer to the zero address");
        uint256 held = balanceOf[from];
        require(held >= value, "Token: balance too low");
        balanceOf[from] = held - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
